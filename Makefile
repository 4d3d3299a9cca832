# czk — the two commands a new user needs:
#   make demo   install what is missing, build, run the embedded demo
#   make test   install what is missing, build, run every test (plus ASan+UBSan)

BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_ARGS ?=

.PHONY: all deps build demo test test-release test-asan bench clean

all: build

deps:
	@scripts/install-deps

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_ARGS) >/dev/null
	@cmake --build $(BUILD) -j$(JOBS)

demo: build
	./$(BUILD)/czk demo

test: build test-release test-asan

# Each test's wall and CPU time lands in <build>/test-times.txt
# (tests/timings.sh prints the table).
test-release: build
	cd $(BUILD) && rm -f test-times.txt && CZK_TEST_TIMES=$(CURDIR)/$(BUILD)/test-times.txt \
		ctest --output-on-failure -j$(JOBS)

# The whole suite again under AddressSanitizer + UndefinedBehaviorSanitizer.
test-asan: deps
	@cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DCZK_SANITIZE=ON $(CMAKE_ARGS) >/dev/null
	@cmake --build $(ASAN_BUILD) -j$(JOBS)
	cd $(ASAN_BUILD) && rm -f test-times.txt && CZK_TEST_TIMES=$(CURDIR)/$(ASAN_BUILD)/test-times.txt \
		ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
		CZK_TEST_ASAN=1 ctest --output-on-failure -j$(JOBS)

bench: build
	./$(BUILD)/czk bench field

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
