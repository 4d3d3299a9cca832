#include "shape_opts.h"

#include "czk/porep_kind.h"

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

int czk_kind_pick(czk_kind_input_args *a, const char *flag, const char *value, const char *cmd, const char *usage)
{
    const czk_proof_kind *k = NULL, *r;
    char values[160] = "";
    size_t n = 0, used = 0;
    for (size_t i = 0; (r = czk_proof_kind_at(i)); i++) {
        if (!r->pick_flag || strcmp(r->pick_flag, flag)) continue;
        if (!value || (r->pick_value && !strcmp(r->pick_value, value))) k = r;
        if (r->pick_value && used < sizeof values)
            used += (size_t)snprintf(values + used, sizeof values - used, "%s%s", n++ ? " or " : "", r->pick_value);
    }
    if (!k) return czk_cli_usage_error(cmd, usage, "%s wants %s, got '%s'", flag, values, value ? value : "");
    if (a->kind && a->kind != k && strcmp(a->pick_flag, flag))
        return czk_cli_usage_error(cmd, usage, "%s and %s exclude each other", a->pick_flag, flag);
    a->kind = k;
    a->pick_flag = flag;
    return 0;
}

/* The input option's argument, or NULL when not given. */
static const char *input_of(const czk_kind_input_args *a, const char *flag)
{
    return !strcmp(flag, "--c1") ? a->c1 : a->vanilla;
}

/* The kind a lone input option means (no pick_flag: PoRep). */
static const czk_proof_kind *default_kind(void)
{
    const czk_proof_kind *r;
    for (size_t i = 0; (r = czk_proof_kind_at(i)); i++)
        if (!r->pick_flag) return r;
    return NULL;
}

/* "--post window|winning or --snap": the options that pick a kind. */
static void pick_options(char *out, size_t cap)
{
    const char *flag[16];
    char vals[16][96];
    size_t g = 0, used = 0;
    const czk_proof_kind *r;
    for (size_t i = 0; (r = czk_proof_kind_at(i)); i++) {
        if (!r->pick_flag) continue;
        size_t j = 0;
        while (j < g && strcmp(flag[j], r->pick_flag)) j++;
        if (j == g) {
            if (g == 16) break;
            flag[g] = r->pick_flag;
            vals[g++][0] = 0;
        }
        if (r->pick_value) {
            size_t l = strlen(vals[j]);
            snprintf(vals[j] + l, sizeof vals[j] - l, "%s%s", l ? "|" : " ", r->pick_value);
        }
    }
    out[0] = 0;
    for (size_t j = 0; j < g && used < cap; j++) {
        int w = snprintf(out + used, cap - used, "%s%s%s", j == 0 ? "" : j + 1 == g ? " or " : ", ", flag[j], vals[j]);
        if (w < 0) break;
        used += (size_t)w;
    }
}

int czk_kind_input(const czk_proof_kind **kind, const char **input, const czk_kind_input_args *a, const char *cmd,
                   const char *usage)
{
    const czk_proof_kind *def = default_kind(), *k = a->kind ? a->kind : def;
    const char *in = input_of(a, k->input_flag);
    if (!a->kind && !in && input_of(a, "--vanilla")) {
        char picks[200];
        pick_options(picks, sizeof picks);
        return czk_cli_usage_error(cmd, usage, "--vanilla needs its kind: %s", picks);
    }
    if (!in || !a->have_out) {
        if (a->kind)
            return czk_cli_usage_error(cmd, usage, "%s, %s and %s are required together", a->pick_flag, k->input_flag,
                                       a->out_flag);
        return czk_cli_usage_error(cmd, usage, "%s and %s are required", k->input_flag, a->out_flag);
    }
    /* another kind's input with the default kind's (--vanilla beside --c1) */
    if (k == def && !a->kind && input_of(a, "--vanilla") && strcmp(def->input_flag, "--vanilla"))
        return czk_cli_usage_error(cmd, usage, "%s and --vanilla exclude each other (--vanilla needs its kind)",
                                   def->input_flag);
    /* the default kind's own options with another kind */
    if (k != def && (input_of(a, def->input_flag) || (a->partition >= 0 && !k->takes_partition)))
        return czk_cli_usage_error(cmd, usage, "%s and --partition are %s's, not %s's", def->input_flag, def->title,
                                   a->pick_flag);
    *kind = k;
    *input = in;
    return 0;
}
