/* Internal interface shared by the files of src/perf. */
#ifndef CZK_PERF_IMPL_H
#define CZK_PERF_IMPL_H

#include <sys/types.h>

#include "perf/perf_internal.h"

struct perf_event_attr;
/* The attributes every czk event shares: type, config, inherit, user only
 * unless e->exclude_kernel is 0, no hypervisor. */
void czk__perf_attr(struct perf_event_attr *a, const czk_perf_event *e);
/* perf_event_open of one event (inherit, user-only unless e->exclude_kernel
 * is 0); returns the fd or -1 with *err = errno. */
int czk__perf_open(const czk_perf_event *e, pid_t pid, int group_fd, int enable_on_exec, int *err);
/* read value, time_enabled, time_running; 0 on success. */
int czk__perf_read(int fd, uint64_t out[3]);
/* Open the hardware groups of `set` (all, or group `group` when >= 0) and
 * its software events on `pid`; fd[i] = -1 with err[i] = errno (or -1:
 * "another group this run") for events not opened. */
void czk__perf_open_set(int fd[], int err[], int hidden_fd[], int *nhidden, const czk_perf_eventset *set, int group,
                        pid_t pid, int enable_on_exec);
void czk__perf_fill_value(czk_perf_value *v, const czk_perf_event *e, int fd, int err, double value, double enabled,
                          double running);
int czk__perf_libpfm_loaded(void);
/* A role's simulated value from pass totals (p2 may be NULL); 0 when the
 * passes at hand cannot give it. `how` names callgrind's formula. */
int czk__perf_sim_value(double *out, const char **how, czk_perf_role role, const czk_perf_cg_totals *p1,
                        const czk_perf_cg_totals *p2);

#endif
