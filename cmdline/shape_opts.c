#include "shape_opts.h"

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

int czk_shape_resolve(czk_fc_shape *out, const czk_shape_args *a, const char *cmd, const char *usage)
{
    if (a->sectors)
        return czk_cli_usage_error(cmd, usage, "--sectors is for the PoSt circuits (--circuit window-post|winning-post)");
    if (a->have_size && a->have_custom)
        return czk_cli_usage_error(cmd, usage, "give either --sector-size or a custom shape, not both");
    if (a->have_size) {
        czk_status s = czk_fc_shape_of_size(out, a->sector_size);
        if (s != CZK_OK) return czk_cli_usage_error(cmd, usage, "%s", czk_last_error());
        return 0;
    }
    if (a->have_custom) {
        if (!a->layers || !a->challenges || !a->nodes || !a->tree[0])
            return czk_cli_usage_error(cmd, usage,
                                       "a custom shape needs --layers, --challenges, --tree and --nodes");
        czk_status s = czk_fc_shape_custom(out, a->nodes, (uint32_t)a->layers,
                                           (uint32_t)(a->partitions ? a->partitions : 1),
                                           (uint32_t)a->challenges, a->tree[0], a->tree[1], a->tree[2]);
        if (s != CZK_OK) return czk_cli_usage_error(cmd, usage, "%s", czk_last_error());
        return 0;
    }
    return czk_cli_usage_error(cmd, usage, "a shape is required: --sector-size S (or a custom shape)");
}

int czk_post_shape_resolve(czk_post_shape *out, czk_post_kind k, const czk_shape_args *a, const char *cmd,
                           const char *usage)
{
    const char *kind = czk_post_kind_name(k);
    if (a->layers || a->partitions)
        return czk_cli_usage_error(cmd, usage, "--layers and --partitions are PoRep options; %s takes --sectors and "
                                   "--challenges", kind);
    const int custom_tree = a->nodes || a->tree[0];
    czk_status s;
    if (a->have_size && custom_tree)
        return czk_cli_usage_error(cmd, usage, "give either --sector-size or --nodes and --tree, not both");
    if (a->have_size) {
        s = czk_post_shape_of(out, k, a->sector_size);
        if (s == CZK_OK && (a->sectors || a->challenges))
            s = czk_post_shape_custom(out, k, out->tree.nodes, out->tree.base_arity, out->tree.sub_arity,
                                      out->tree.top_arity, a->sectors ? (uint32_t)a->sectors : out->sectors,
                                      a->challenges ? (uint32_t)a->challenges : out->challenges);
    } else if (custom_tree) {
        if (!a->nodes || !a->tree[0] || !a->sectors || !a->challenges)
            return czk_cli_usage_error(cmd, usage, "a custom %s shape needs --nodes, --tree, --sectors and --challenges",
                                       kind);
        s = czk_post_shape_custom(out, k, a->nodes, a->tree[0], a->tree[1], a->tree[2], (uint32_t)a->sectors,
                                  (uint32_t)a->challenges);
    } else {
        return czk_cli_usage_error(cmd, usage, "%s needs --sector-size S (or --nodes N --tree B[,S[,T]])", kind);
    }
    if (s != CZK_OK) return czk_cli_usage_error(cmd, usage, "%s", czk_last_error());
    return 0;
}

int czk_snap_shape_resolve(czk_snap_shape *out, const czk_shape_args *a, const char *cmd, const char *usage)
{
    if (a->layers || a->partitions || a->sectors || a->challenges)
        return czk_cli_usage_error(cmd, usage, "--layers, --partitions, --sectors and --challenges do not apply to "
                                               "snap: its constants follow from the node count");
    const int custom_tree = a->nodes || a->tree[0];
    czk_status s;
    if (a->have_size && custom_tree)
        return czk_cli_usage_error(cmd, usage, "give either --sector-size or --nodes and --tree, not both");
    if (a->have_size) {
        s = czk_snap_shape_of(out, a->sector_size);
    } else if (custom_tree) {
        if (!a->nodes || !a->tree[0])
            return czk_cli_usage_error(cmd, usage, "a custom snap shape needs --nodes and --tree");
        s = czk_snap_shape_custom(out, a->nodes, a->tree[0], a->tree[1], a->tree[2]);
    } else {
        return czk_cli_usage_error(cmd, usage, "snap needs --sector-size S (or --nodes N --tree B[,S[,T]])");
    }
    if (s != CZK_OK) return czk_cli_usage_error(cmd, usage, "%s", czk_last_error());
    return 0;
}
