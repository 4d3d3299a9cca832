#include "progress.h"

#include <stdio.h>
#include <string.h>

#include "czk/common.h"

void czk_progress_init(czk_progress *p, int enabled)
{
    memset(p, 0, sizeof *p);
    p->enabled = enabled;
}

void czk_progress_stage(czk_progress *p, const char *stage, uint64_t total, const char *unit)
{
    snprintf(p->stage, sizeof p->stage, "%s", stage);
    p->start = czk_now();
    p->last_draw = 0;
    p->total = total;
    p->unit = unit ? unit : "";
    czk_progress_update(p, 0);
}

static void fmt_rate(char *buf, size_t n, double r)
{
    if (r >= 1e9) snprintf(buf, n, "%.2fG", r / 1e9);
    else if (r >= 1e6) snprintf(buf, n, "%.2fM", r / 1e6);
    else if (r >= 1e3) snprintf(buf, n, "%.1fk", r / 1e3);
    else snprintf(buf, n, "%.0f", r);
}

void czk_progress_update(czk_progress *p, uint64_t done)
{
    if (!p->enabled) return;
    double t = czk_now();
    if (done != p->total && t - p->last_draw < 0.1) return;
    p->last_draw = t;
    double el = t - p->start;
    if (p->total) {
        double frac = (double)done / (double)p->total;
        char rate[32] = "";
        if (el > 0) fmt_rate(rate, sizeof rate, (double)done / el);
        double eta = frac > 0 ? el * (1 - frac) / frac : 0;
        fprintf(stderr, "\r\033[K%-24s %5.1f%%  %s %s/s  ETA %.0fs", p->stage, 100 * frac, rate,
                p->unit, eta);
    } else {
        fprintf(stderr, "\r\033[K%-24s %.1fs", p->stage, el);
    }
    fflush(stderr);
}

void czk_progress_fraction(czk_progress *p, const char *stage, double fraction)
{
    if (!p->enabled) return;
    if (strcmp(stage, p->stage) != 0) {
        snprintf(p->stage, sizeof p->stage, "%s", stage);
        p->start = czk_now();
        p->last_draw = 0;
    }
    double t = czk_now();
    if (fraction < 1 && t - p->last_draw < 0.1) return;
    p->last_draw = t;
    double el = t - p->start;
    double eta = fraction > 0 ? el * (1 - fraction) / fraction : 0;
    fprintf(stderr, "\r\033[K%-24s %5.1f%%  ETA %.0fs", p->stage, 100 * fraction, eta);
    fflush(stderr);
}

void czk_progress_done(czk_progress *p)
{
    if (!p->enabled) return;
    fprintf(stderr, "\r\033[K");
    fflush(stderr);
}

void czk_progress_cb(void *ctx, const char *stage, double fraction)
{
    czk_progress *p = ctx;
    if (!p) return;
    if (fraction >= 1) czk_progress_done(p);
    else czk_progress_fraction(p, stage, fraction);
}
