/* The JSON readers' shared steps (filecoin/json_file.h). */
#include <stdio.h>

#include "filecoin/json_file.h"

czk_status czk__json_load(json_t **out, const char *path)
{
    json_error_t e;
    *out = json_load_file(path, JSON_REJECT_DUPLICATES, &e);
    if (*out) return CZK_OK;
    FILE *f = fopen(path, "rb");
    if (!f) return czk_error(CZK_ERR_IO, "%s: cannot open", path);
    fclose(f);
    return czk_error(CZK_ERR_FORMAT, "%s: line %d column %d: %s", path, e.line, e.column, e.text);
}

czk_status czk__json_bytes32(uint8_t out[32], const json_t *a, const char *path, const char *key)
{
    if (!json_is_array(a) || json_array_size(a) != 32)
        return czk_error(CZK_ERR_FORMAT, "%s: %s: not an array of 32 numbers", path, key);
    for (size_t i = 0; i < 32; i++) {
        const json_t *e = json_array_get(a, i);
        if (!json_is_integer(e) || json_integer_value(e) < 0 || json_integer_value(e) > 255)
            return czk_error(CZK_ERR_FORMAT, "%s: %s[%zu]: not an integer 0..255", path, key, i);
        out[i] = (uint8_t)json_integer_value(e);
    }
    return CZK_OK;
}
