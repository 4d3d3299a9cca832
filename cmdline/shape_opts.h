/* Sector-shape options shared by the commands that build PoRep circuits:
 *   --sector-size S            2KiB, 8MiB, 512MiB, 32GiB, 64GiB (or bytes)
 *   --layers L --challenges K --tree B[,S[,T]] --nodes N [--partitions P]
 *                              a custom shape (tests, experiments)
 * and, with CZK_POST_SHAPE_OPTIONS, the FallbackPoSt circuits (czk/post.h):
 *   --sector-size S [--sectors N] [--challenges C]
 *                              a production shape, optionally resized
 *   --nodes N --tree B[,S[,T]] --sectors N --challenges C
 *                              a custom tree
 * and SnapDeals (czk/snap.h):
 *   --sector-size S            a production shape
 *   --nodes N --tree B[,S[,T]] a custom shape, the constants derived from N
 */
#ifndef CZK_CMDLINE_SHAPE_OPTS_H
#define CZK_CMDLINE_SHAPE_OPTS_H

#include "cmdline.h"
#include "czk/filecoin.h"
#include "czk/kind.h"

enum {
    CZK_OPT_SECTOR_SIZE = 1200,
    CZK_OPT_LAYERS,
    CZK_OPT_CHALLENGES,
    CZK_OPT_TREE,
    CZK_OPT_NODES,
    CZK_OPT_PARTITIONS,
    CZK_OPT_SECTORS,
};

#define CZK_SHAPE_OPTIONS                                                               \
    {"sector-size", required_argument, 0, CZK_OPT_SECTOR_SIZE},                         \
        {"layers", required_argument, 0, CZK_OPT_LAYERS},                               \
        {"challenges", required_argument, 0, CZK_OPT_CHALLENGES},                       \
        {"tree", required_argument, 0, CZK_OPT_TREE},                                   \
        {"nodes", required_argument, 0, CZK_OPT_NODES},                                 \
        {"partitions", required_argument, 0, CZK_OPT_PARTITIONS}

/* Add to CZK_SHAPE_OPTIONS where a PoSt circuit can be chosen. */
#define CZK_POST_SHAPE_OPTIONS {"sectors", required_argument, 0, CZK_OPT_SECTORS}

#define CZK_SHAPE_USAGE                                                                 \
    "  --sector-size S         2KiB, 8MiB, 512MiB, 32GiB or 64GiB\n"                   \
    "  --layers L --challenges K --tree B[,S[,T]] --nodes N [--partitions P]\n"         \
    "                          a custom shape instead (tests and experiments)\n"

typedef struct czk_shape_args {
    unsigned long long sector_size;
    long long layers, challenges, partitions, sectors;
    unsigned long long nodes;
    unsigned tree[3];
    int have_size, have_custom;
} czk_shape_args;

/* Handle one of the options above; returns 1 if it was one (0 or a usage
 * error in *rc), 0 if not a shape option. */
int czk_shape_option(czk_shape_args *a, int opt, const char *arg, const char *cmd,
                     const char *usage, int *rc);
/* The kind-neutral numbers of the options given. */
void czk_shape_spec_of(czk_shape_spec *out, const czk_shape_args *a);
/* Kind k's shape of the options given (*shape malloc'd; free()): 0, or a
 * usage error (exit code) naming what is missing or does not apply. */
int czk_kind_shape_resolve(void **shape, const czk_proof_kind *k, const czk_shape_args *a, const char *cmd,
                           const char *usage);
/* Build the PoRep shape: 0, or a usage error (exit code) when neither form
 * or both were given, or a PoSt-only option (--sectors). */
int czk_shape_resolve(czk_fc_shape *out, const czk_shape_args *a, const char *cmd, const char *usage);

/* The kind and its input czk prove / czk verify were given, as the
 * registry's rows name them (czk/kind.h: pick_flag, input_flag,
 * takes_partition): --c1 FILE (PoRep), --post window|winning --vanilla
 * DIR, --snap --vanilla DIR. The option parser fills it: czk_kind_pick on
 * a picking option, the inputs and --partition (-1: not given) as they
 * come; out_flag names the command's other required file ("-o",
 * "--proof") and have_out whether it was given. */
typedef struct czk_kind_input_args {
    const char *c1, *vanilla;
    const czk_proof_kind *kind; /* picked, or NULL */
    const char *pick_flag;      /* the option that picked it */
    long long partition;
    const char *out_flag;
    int have_out;
} czk_kind_input_args;
/* flag (with its value, or NULL for an option without one) picks a kind:
 * 0, or a usage error naming the values flag takes or the option picking
 * another kind. */
int czk_kind_pick(czk_kind_input_args *a, const char *flag, const char *value, const char *cmd, const char *usage);
/* 0 with *kind and *input set, or a usage error (exit code) naming the
 * combination that does not go together. */
int czk_kind_input(const czk_proof_kind **kind, const char **input, const czk_kind_input_args *a, const char *cmd,
                   const char *usage);

#endif
