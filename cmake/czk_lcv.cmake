# Sources named *_lcv.c are compiled once per linear-combination storage
# variant (src/cs/lc.h): four object libraries, each with -DCZK_LCV=<variant>.
#
#   czk_lcv_objects(<name> <out-var> SOURCES f_lcv.c ... [INCLUDES dir ...]
#                   [LINK target ...] [OPTIONS opt ...] [DEFINES def ...])
#
# makes <name>_vec, <name>_inline1, <name>_inline2, <name>_inline4 and sets
# <out-var> to their objects, for add_library / add_executable.
set(CZK_LC_VARIANTS vec inline1 inline2 inline4)

function(czk_lcv_objects name out)
  cmake_parse_arguments(A "" "" "SOURCES;INCLUDES;LINK;OPTIONS;DEFINES" ${ARGN})
  set(objs)
  foreach(v ${CZK_LC_VARIANTS})
    add_library(${name}_${v} OBJECT ${A_SOURCES})
    target_compile_definitions(${name}_${v} PRIVATE CZK_LCV=${v} ${A_DEFINES})
    if(A_INCLUDES)
      target_include_directories(${name}_${v} PRIVATE ${A_INCLUDES})
    endif()
    if(A_LINK)
      target_link_libraries(${name}_${v} PRIVATE ${A_LINK})
    endif()
    if(A_OPTIONS)
      target_compile_options(${name}_${v} PRIVATE ${A_OPTIONS})
    endif()
    list(APPEND objs $<TARGET_OBJECTS:${name}_${v}>)
  endforeach()
  set(${out} ${objs} PARENT_SCOPE)
endfunction()
