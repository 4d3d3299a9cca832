/* czk — proof kinds: the one contract every kind of Filecoin proof
 * (PoRep, WindowPoSt, WinningPoSt, SnapDeals) fills, and one call that
 * proves a job of any kind.
 *
 * A kind's row (czk_proof_kind) carries everything the command line, the
 * service and the benchmarks need from it: the engine circuit and the
 * witness sources (czk/witness.h: full synthesis, the parallel prover, PCE);
 * its shapes (from a sector size or a custom spec) with their sizes,
 * parameter names, setup and PCE matrices; its files (job data and what a
 * verifier reads) and public inputs; and the decoding of a cuzk.v1 request.
 * Nothing above the kind folders chooses among kinds by hand
 * (docs/architecture.md, "A proof kind's contract").
 *
 * czk_kind_prove runs one job of any kind through the pipelined engine
 * (n = 1 included) and verifies the proofs once, in the engine.
 */
#ifndef CZK_KIND_H
#define CZK_KIND_H

#include "czk/engine.h"
#include "czk/witness.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Long work reports through this: a stage name and the fraction done
 * (0..1; a negative fraction: the stage's length is unknown). */
typedef void (*czk_progress_fn)(void *ctx, const char *stage, double fraction);

/* --pce on|off|auto: PCE (witness-only synthesis + sparse mat-vec over the
 * pre-compiled matrices) off, on (the matrices are loaded from the cache,
 * or built and cached), or auto (on when the matrices are already cached). */
typedef enum czk_pce_mode { CZK_PCE_MODE_OFF = 0, CZK_PCE_MODE_ON, CZK_PCE_MODE_AUTO } czk_pce_mode;
czk_status czk_pce_mode_parse(czk_pce_mode *out, const char *s) CZK_WUR;
const char *czk_pce_mode_name(czk_pce_mode m);

typedef struct czk_source_opts {
    czk_pce_mode pce;         /* default (zeroed struct): off */
    int parallel;             /* 1: without PCE, the kind's multithreaded prover if it has one */
    czk_lc_kind lc;           /* LC storage of full synthesis */
    czk_progress_fn progress; /* building / loading shared data (the PCE matrices); may be NULL */
    void *progress_ctx;
} czk_source_opts;

/* A byte string borrowed from the caller. */
typedef struct czk_bytes {
    const uint8_t *data;
    size_t len;
} czk_bytes;

/* A proof request as cuzk.v1's SubmitProofRequest carries it (docs/cuzk-api.md),
 * borrowed for the duration of a decode. */
typedef struct czk_kind_request {
    uint64_t sector_size;       /* 0: from the registered proof */
    uint64_t registered_proof;  /* the filecoin-proofs-api number (PoSt, Snap; PoRep's is in its C1) */
    uint64_t sector_number, miner_id;
    uint32_t partition_index;
    czk_bytes payload;          /* vanilla_proof (PoRep: the C1 envelope JSON) */
    const czk_bytes *proofs;    /* vanilla_proofs: PoSt one bincode sector proof each, Snap one per partition */
    size_t n_proofs;
    czk_bytes randomness, comm_r_old, comm_r_new, comm_d_new;
} czk_kind_request;

/* The numbers a circuit's shape is made from (czk setup, czk pce build,
 * czk bench): a production sector size, or the parts of a custom shape
 * (tests and experiments). 0: not given. Which parts a kind takes, and in
 * which combinations, is the kind's (shape_resolve). */
typedef struct czk_shape_spec {
    uint64_t sector_size;
    uint64_t nodes;    /* custom: nodes per sector (tree leaves) */
    uint32_t tree[3];  /* custom: base, sub and top arity (0: none) */
    uint32_t layers, challenges, partitions, sectors;
} czk_shape_spec;

struct czk_pce;
struct czk_pce_work;
struct czk__kind_plan;  /* src/kinds/sources.h */
struct czk__kind_shape; /* src/kinds/pce_kind.h */

typedef struct czk_proof_kind {
    const char *name;    /* "porep" */
    const char *summary; /* one line */
    const char *title;   /* "PoRep", "WindowPoSt": messages */
    const czk_engine_circuit *circuit;
    uint32_t (*partitions)(const void *data);
    /* ---- what the generic code is written over (internal to the library) ---- */
    /* The parallel plan of a partition (the parallel prover, PCE's witness). */
    const struct czk__kind_plan *plan;
    /* The shape's PCE key and recording, sizes and czk's parameter file name. */
    const struct czk__kind_shape *shape_ops;
    /* ---- shapes: the circuit without a job (setup, PCE, parameter names) ---- */
    /* *shape (malloc'd, free()) from spec; CZK_ERR_INVALID_ARG names the
     * option that is missing, extra or out of range. */
    czk_status (*shape_resolve)(void **shape, const czk_shape_spec *spec);
    /* The shape of job data (borrowed from it). */
    const void *(*shape_of)(const void *data);
    /* One line naming the shape ("StackedDrg2KiBV1_1", "snap (custom, 64 nodes)"). */
    void (*shape_name)(char *out, size_t cap, const void *shape);
    /* The parameter file (ext ".params" or ".vk") under dir, by the name
     * filecoin-proofs gives it; an error for a custom shape. */
    czk_status (*param_path)(char *out, size_t cap, const char *dir, const void *shape, const char *ext);
    /* ---- files (czk prove, czk verify) ---- */
    /* Job data from its files (PoRep: a C1 JSON file; the others: a vanilla
     * directory as czk gen-post / gen-snap and czk-oracle write it), read
     * strictly and checked natively before anything else; free_data frees it. */
    czk_status (*read)(void **data, const char *path);
    /* What a verifier reads there (the public data, no vanilla proofs). */
    czk_status (*read_public)(void **pub, const char *path);
    void (*free_public)(void *pub);
    const void *(*public_shape)(const void *pub);
    uint32_t (*public_partitions)(const void *pub);
    const char *(*public_name)(const void *pub); /* the registered proof, "StackedDrg2KiBV1_1" */
    /* Partition k's public inputs (n of them, ONE excluded: the verifying
     * key's count, refused naming both when the circuit's differs). */
    czk_status (*public_inputs)(czk_fr *out, size_t n, const void *pub, uint32_t k);
    /* ---- requests (czk serve) ---- */
    int wire_kind;              /* cuzk.v1 ProofKind: 1 PoRep, 2 SnapDeals, 3 WindowPoSt, 4 WinningPoSt */
    const char *circuit_prefix; /* circuit ids are "<prefix>-<2k|8m|512m|32g|64g>" (cuzk's porep-32g ...) */
    /* Decode and check a request's payload into job data (*data, freed with
     * free_data); errors name the field, the offset and the proof. *what: one
     * line for logs ("PoRep StackedDrg32GiBV1_1 sector 12"). */
    czk_status (*decode)(void **data, char what[96], const czk_kind_request *r);
    void (*free_data)(void *data);
    /* The sector size of job data (for its circuit id). */
    uint64_t (*sector_size)(const void *data);
    /* ---- the command line (czk prove, czk verify, czk client) ---- */
    /* The option (and its value) that picks the kind: "--post" "window",
     * "--snap" NULL; NULL: the kind its input option alone means (PoRep:
     * --c1 FILE). */
    const char *pick_flag, *pick_value;
    /* The option naming the job's files: "--c1" (a C1 file) or "--vanilla"
     * (a vanilla directory; czk client: its bincode files). */
    const char *input_flag;
    /* 1: --partition K proves or verifies one partition of a job. */
    int takes_partition;
    /* ---- benchmarks and demos ---- */
    /* Synthetic, consistent job data of shape from seed (a sector's C1, a
     * partition's or an update's vanilla proofs), checked natively; freed
     * with free_data. */
    czk_status (*generate)(void **data, const void *shape, uint64_t seed);
} czk_proof_kind;

/* ---- what every kind has, written once over its row (src/kinds) ---- */

/* Open the witness source opts asks for over job data: full synthesis,
 * the parallel prover (opts->parallel) or PCE (opts->pce on, or auto when
 * the shape's matrices are cached); opts NULL: full synthesis with the
 * default LC storage. out->name says which opened. */
czk_status czk_kind_source_open(czk_witness_source *out, const czk_proof_kind *k, const void *data,
                                const czk_source_opts *opts) CZK_WUR;
/* Inputs (ONE included), aux and constraints (input rows included) of one
 * partition of shape. */
czk_status czk_kind_shape_sizes(czk_cs_sizes *out, const czk_proof_kind *k, const void *shape) CZK_WUR;
/* Groth16 parameters of one partition of shape, in memory, from one
 * synthesis of it (seed NULL: getrandom). */
czk_status czk_kind_setup(czk_groth16_params *out, const czk_proof_kind *k, const void *shape, const uint64_t *seed,
                          czk_progress_fn progress, void *ctx) CZK_WUR;
/* The parameters of shape from czk's own cache directory ($CZK_CACHE_DIR,
 * else $XDG_CACHE_HOME/czk, else ~/.cache/czk), read pinned; made by
 * czk_kind_setup (fresh toxic waste) and cached when absent or unreadable.
 * path_out (may be NULL) receives the file; *generated (may be NULL)
 * whether it was made now. */
czk_status czk_kind_cached_params(czk_groth16_params *out, const czk_proof_kind *k, const void *shape,
                                  czk_progress_fn progress, void *ctx, char path_out[512], int *generated) CZK_WUR;
/* The shape's PCE matrices: recorded now (build), from czk's cache or
 * recorded and cached (get; *built, may be NULL: which), the cache file's
 * path, and whether it is cached. */
czk_status czk_kind_pce_build(struct czk_pce **out, const czk_proof_kind *k, const void *shape,
                              czk_progress_fn progress, void *ctx) CZK_WUR;
czk_status czk_kind_pce_get(struct czk_pce **out, const czk_proof_kind *k, const void *shape,
                            czk_progress_fn progress, void *ctx, int *built) CZK_WUR;
czk_status czk_kind_pce_path(char *out, size_t cap, const czk_proof_kind *k, const void *shape) CZK_WUR;
int czk_kind_pce_cached(const czk_proof_kind *k, const void *shape);
/* The cache key of shape's matrices (what they depend on, and the kind's
 * PCE version): a PCE file of another key is not this shape's. out holds
 * CZK_PCE_KEY_MAX (czk/pce.h) bytes. */
void czk_kind_pce_key(char *out, const czk_proof_kind *k, const void *shape);
/* Partition part's witness (input and aux) of job data into w, a
 * workspace of the shape's PCE (CZK_ERR_INVALID_ARG naming both keys
 * otherwise), synthesized over the kind's parallel plan on threads (<= 0:
 * czk_threads()): bit for bit the sequential WITNESS backend's. Then
 * czk_pce_work_eval. */
czk_status czk_kind_pce_witness(struct czk_pce_work *w, const czk_proof_kind *k, const void *data, uint32_t part,
                                int threads) CZK_WUR;
/* w's a, b, c (after czk_kind_pce_witness and the evaluation) compared row
 * by row with the parallel PROVE synthesis of that partition, streamed
 * (czk_pce_work_compare_stream): input, aux, a, b, c and the densities,
 * bit for bit. */
czk_status czk_kind_pce_validate(const struct czk_pce_work *w, const czk_proof_kind *k, const void *data,
                                 uint32_t part, int threads) CZK_WUR;

/* The parameters of kind k's shape computed and written section by section
 * from its PCE matrices (cached, or recorded first) in ~64 bytes per
 * constraint beside them, for files larger than memory: the same bytes as
 * czk_kind_setup for the same seed. The free space for the whole file is checked
 * before the work. */
czk_status czk_kind_setup_write(const char *params_path, const char *vk_path, const czk_proof_kind *k,
                                const void *shape, const uint64_t *seed, czk_progress_fn progress,
                                void *ctx) CZK_WUR;

/* Verify proofs[i] as the proof of partition partitions[i] (NULL: 0 .. n-1)
 * of pub (kind k's public data), in one batch. */
czk_status czk_kind_verify(const czk_groth16_vk *vk, const czk_proof_kind *k, const void *pub,
                           const czk_groth16_proof *proofs, const uint32_t *partitions, uint32_t n) CZK_WUR;

/* Verify proofs[i] as the proof of partition partitions[i] (NULL: 0 ..
 * n-1) of job data (its circuit's public inputs), in one batch. */
czk_status czk_kind_verify_data(const czk_groth16_vk *vk, const czk_proof_kind *k, const void *data,
                                const czk_groth16_proof *proofs, const uint32_t *partitions, uint32_t n) CZK_WUR;

/* One partition outside the engine with the prover's per-stage timings
 * (czk demo, czk bench prove): src's witness (NULL: full synthesis)
 * synthesized on czk_threads(), checked (a*b = c), then czk_groth16_prove.
 * Not verified. times may be NULL. */
typedef struct czk_kind_times {
    double synth_s;     /* the witness (its a*b = c check runs after, untimed) */
    const char *source; /* which witness source ran */
    czk_groth16_timings g;
    uint64_t constraints, aux, inputs;
} czk_kind_times;
czk_status czk_kind_prove_partition(czk_groth16_proof *out, const czk_proof_kind *k, const czk_groth16_params *params,
                                    const void *data, uint32_t part, const czk_witness_source *src,
                                    czk_kind_times *times) CZK_WUR;

/* The parameter file of job data (kind k) under dir. */
czk_status czk_kind_param_path(char *out, size_t cap, const czk_proof_kind *k, const char *dir, const void *data,
                               const char *ext) CZK_WUR;
/* The parameter file of kind k's production circuit for sector_size (a
 * preload by circuit id, with no job data). */
czk_status czk_kind_param_path_of_size(char *out, size_t cap, const czk_proof_kind *k, const char *dir,
                                       uint64_t sector_size, const char *ext) CZK_WUR;

/* The registry: every kind czk proves. */
extern const czk_proof_kind czk_kind_porep;
const czk_proof_kind *czk_proof_kind_find(const char *name);
/* The kind of a cuzk.v1 ProofKind number (1..4); NULL for any other. */
const czk_proof_kind *czk_proof_kind_of_wire(int wire_kind);
/* The circuit id of kind k at a production sector size ("porep-32g");
 * CZK_ERR_INVALID_ARG for another size. */
czk_status czk_kind_circuit_id(char *out, size_t cap, const czk_proof_kind *k, uint64_t sector_size) CZK_WUR;
/* The i-th kind, NULL past the end. */
const czk_proof_kind *czk_proof_kind_at(size_t i);
/* Every kind's name for a message: "porep, window-post, winning-post or snap". */
void czk_proof_kind_names(char *out, size_t cap);

/* The engine job of kind k's data (partitions NULL: 0 .. n-1): the one place
 * a kind's job becomes an engine job (czk_kind_prove, czk serve). */
void czk_kind_engine_job(czk_engine_job *out, const czk_proof_kind *k, const void *data,
                         const czk_groth16_params *params, const czk_witness_source *source,
                         const uint32_t *partitions, uint32_t n, int priority, const char *name);

/* Per partition, from the engine's timeline. */
typedef struct czk_kind_partition_times {
    uint32_t partition;
    double synth_s, prove_s; /* synthesis (incl. the witness check), prover pass */
    int batch;               /* tasks proven in the same pass */
} czk_kind_partition_times;

typedef struct czk_kind_report {
    const char *source;      /* the witness source that ran: "prove", "parallel", "pce" */
    int verified;            /* 1: the engine verified every proof */
    double wall_s;           /* submission to the last proof */
    uint64_t peak_reserved;  /* the engine's peak reservation, bytes */
    czk_kind_partition_times *parts; /* n entries, or NULL; caller-provided */
} czk_kind_report;

typedef struct czk_kind_job {
    const czk_proof_kind *kind;
    const void *data;                 /* the kind's job data (PoRep: a const czk_fc_c1 *) */
    const czk_groth16_params *params;
    const uint32_t *partitions;       /* NULL: 0 .. n-1 */
    uint32_t n;
    czk_source_opts source;
    czk_engine_opts engine;           /* zeroed: defaults (no_verify 0: verified once) */
    /* Engine progress (tasks synthesized / proven of the job), or NULL. */
    czk_progress_fn progress;
    void *progress_ctx;
    /* Instead of params: this .params file, left on disk and streamed
     * section by section by each prover pass, for parameters larger than
     * memory (czk_groth16_params_open_streamed). The partitions go through
     * the engine as with resident parameters (the synthesis of the next
     * beside the proving of this one when the budget allows); with a source
     * that can evaluate a, b, c later (PCE: one matrix at a time into the
     * prover's vector) a task holds its witness alone. */
    const char *params_stream;
    czk_groth16_check stream_check;         /* set it (0 is FULL) */
    uint64_t stream_chunk_bytes;            /* 0: the prover's default (1 GiB) */
    czk_groth16_read_info *stream_info;     /* .ran: the last partition's validation, or NULL */
    czk_groth16_stream_stats *stream_stats; /* read_s, bytes_read summed over the partitions, or NULL */
} czk_kind_job;

/* Prove the job's partitions through one engine; proofs[i] is partition
 * partitions[i]'s proof. Verified by the engine unless engine.no_verify.
 * Errors name the partition and the stage (synthesis, witness check,
 * parameters, prove, verification). report may be NULL. */
czk_status czk_kind_prove(czk_groth16_proof *proofs, const czk_kind_job *job, czk_kind_report *report) CZK_WUR;

#ifdef __cplusplus
}
#endif
#endif
