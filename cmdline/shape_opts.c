#include "shape_opts.h"

#include "czk/porep_kind.h"
#include "czk/post_kind.h"
#include "czk/snap_kind.h"

#include <stdlib.h>
#include <string.h>

int czk_shape_option(czk_shape_args *a, int opt, const char *arg, const char *cmd,
                     const char *usage, int *rc)
{
    long long v;
    *rc = 0;
    switch (opt) {
    case CZK_OPT_SECTOR_SIZE:
        if (czk_cli_parse_size(arg, &a->sector_size) || a->sector_size == 0)
            *rc = czk_cli_usage_error(cmd, usage, "--sector-size wants a size like 2KiB or 32GiB, got '%s'", arg);
        a->have_size = 1;
        return 1;
    case CZK_OPT_LAYERS:
        if (czk_cli_parse_int(arg, 1, CZK_FC_MAX_LAYERS, &v))
            *rc = czk_cli_usage_error(cmd, usage, "--layers wants 1..%d, got '%s'", CZK_FC_MAX_LAYERS, arg);
        a->layers = v;
        a->have_custom = 1;
        return 1;
    case CZK_OPT_CHALLENGES:
        if (czk_cli_parse_int(arg, 1, 1000, &v))
            *rc = czk_cli_usage_error(cmd, usage, "--challenges wants 1..1000, got '%s'", arg);
        a->challenges = v;
        a->have_custom = 1;
        return 1;
    case CZK_OPT_PARTITIONS:
        if (czk_cli_parse_int(arg, 1, 100, &v))
            *rc = czk_cli_usage_error(cmd, usage, "--partitions wants 1..100, got '%s'", arg);
        a->partitions = v;
        a->have_custom = 1;
        return 1;
    case CZK_OPT_SECTORS:
        if (czk_cli_parse_int(arg, 1, 100000, &v))
            *rc = czk_cli_usage_error(cmd, usage, "--sectors wants 1..100000, got '%s'", arg);
        a->sectors = v;
        return 1;
    case CZK_OPT_NODES:
        if (czk_cli_parse_size(arg, &a->nodes) || a->nodes < 2)
            *rc = czk_cli_usage_error(cmd, usage, "--nodes wants a node count >= 2, got '%s'", arg);
        a->have_custom = 1;
        return 1;
    case CZK_OPT_TREE: {
        unsigned t[3] = {0, 0, 0};
        int n = 0;
        const char *p = arg;
        while (*p && n < 3) {
            char *end;
            long x = strtol(p, &end, 10);
            if (end == p || (x != 2 && x != 4 && x != 8)) break;
            t[n++] = (unsigned)x;
            p = end;
            if (*p == ',') p++;
            else break;
        }
        if (n == 0 || *p)
            *rc = czk_cli_usage_error(cmd, usage, "--tree wants arities like 8 or 8,8,2 (each 2, 4 or 8), got '%s'", arg);
        memcpy(a->tree, t, sizeof t);
        a->have_custom = 1;
        return 1;
    }
    default:
        return 0;
    }
}

void czk_shape_spec_of(czk_shape_spec *out, const czk_shape_args *a)
{
    memset(out, 0, sizeof *out);
    out->sector_size = a->have_size ? a->sector_size : 0;
    out->nodes = a->nodes;
    memcpy(out->tree, a->tree, sizeof out->tree);
    out->layers = (uint32_t)a->layers;
    out->challenges = (uint32_t)a->challenges;
    out->partitions = (uint32_t)a->partitions;
    out->sectors = (uint32_t)a->sectors;
}

int czk_kind_shape_resolve(void **shape, const czk_proof_kind *k, const czk_shape_args *a, const char *cmd,
                           const char *usage)
{
    czk_shape_spec spec;
    czk_shape_spec_of(&spec, a);
    if (k->shape_resolve(shape, &spec) != CZK_OK) return czk_cli_usage_error(cmd, usage, "%s", czk_last_error());
    return 0;
}

/* The kind's shape copied into a typed one (size bytes). */
static int resolve_into(void *out, size_t size, const czk_proof_kind *k, const czk_shape_args *a, const char *cmd,
                        const char *usage)
{
    void *shape = NULL;
    int rc = czk_kind_shape_resolve(&shape, k, a, cmd, usage);
    if (rc == 0) memcpy(out, shape, size);
    free(shape);
    return rc;
}

int czk_shape_resolve(czk_fc_shape *out, const czk_shape_args *a, const char *cmd, const char *usage)
{
    return resolve_into(out, sizeof *out, &czk_kind_porep, a, cmd, usage);
}

int czk_post_shape_resolve(czk_post_shape *out, czk_post_kind k, const czk_shape_args *a, const char *cmd,
                           const char *usage)
{
    return resolve_into(out, sizeof *out, czk_post_proof_kind(k), a, cmd, usage);
}

int czk_snap_shape_resolve(czk_snap_shape *out, const czk_shape_args *a, const char *cmd, const char *usage)
{
    return resolve_into(out, sizeof *out, &czk_kind_snap, a, cmd, usage);
}

int czk_kind_input(const czk_proof_kind **kind, const char **input, const czk_kind_input_args *a, const char *cmd,
                   const char *usage)
{
    const int prove = !strcmp(a->out_flag, "-o");
    if (a->snap) {
        if (a->post) return czk_cli_usage_error(cmd, usage, "--snap and --post exclude each other");
        if (!a->vanilla || !a->have_out)
            return prove ? czk_cli_usage_error(cmd, usage, "--snap needs --vanilla DIR and -o")
                         : czk_cli_usage_error(cmd, usage, "--snap, --vanilla and %s are required together", a->out_flag);
        if (a->c1 || a->partition >= 0)
            return czk_cli_usage_error(cmd, usage, "--c1 and --partition are PoRep's, not --snap's");
        *kind = &czk_kind_snap;
        *input = a->vanilla;
        return 0;
    }
    if (a->post || a->vanilla) {
        if (!a->post || !a->vanilla || !a->have_out)
            return czk_cli_usage_error(cmd, usage, "--post, --vanilla and %s are required together", a->out_flag);
        if (a->c1 || a->partition >= 0)
            return czk_cli_usage_error(cmd, usage, "--c1 and --partition are PoRep's, not --post's");
        *kind = czk_post_proof_kind((czk_post_kind)(a->post - 1));
        *input = a->vanilla;
        return 0;
    }
    if (!a->c1 || !a->have_out) return czk_cli_usage_error(cmd, usage, "--c1 and %s are required", a->out_flag);
    *kind = &czk_kind_porep;
    *input = a->c1;
    return 0;
}
