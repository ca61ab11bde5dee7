/* Stone Age playout core: the engine's step/settle rules, RandomPlayer and sample_chance in plain C99.
 *
 * It plays the same games as games.stoneage.rules.engine.playout with RandomPlayer choosers, bit for
 * bit: the same rules (engine.step / engine.settle), the same random decisions (players.RandomPlayer:
 * the same calls of random(), the same rejection loops, the same int(random() * n) in doubles) and the
 * same chance outcomes (engine.sample_chance). Randomness is CPython's random.random(): MT19937 with
 * genrand_res53, on the 624-word states Python's Random.getstate() gives (plus the index).
 *
 * Everything comes in and goes out as flat int32 arrays (the encodings of games/stoneage/rules/fast.py):
 * the box profile, the position, the RNG states (in/out). No Python.h, no globals: re-entrant.
 * Cards and buildings are numbered by the rank of their id among the profile's sorted ids, so sorting
 * numbers sorts ids exactly as Python sorts the strings.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SA_CORE_ABI 1 /* the encodings' version: bump with fast.ABI whenever an encoding changes */
#define MAXP 8    /* players */
#define MAXCP 8   /* card places */
#define MAXPL 32  /* places */
#define MAXC 200  /* cards */
#define MAXB 200  /* buildings */
#define MAXT 16   /* tools per player */
#define MAXD 64   /* dice of one roll */
#define MAXLIST 256

/* return codes */
#define SA_OVER 0
#define SA_MAX_MOVES 1
#define SA_BAD_PROFILE -1
#define SA_BAD_POSITION -2
#define SA_OUT_FULL -3
#define SA_LOG_FULL -4
#define SA_INTERNAL -5
#define SA_NO_MEMORY -6
#define SA_BAD_ARGS -7

enum { P_REVEAL, P_PLACE, P_ACT, P_ROLL, P_TOOLS, P_BAR, P_DRAW, P_FEED, P_OVER, P_COUNT };
enum { HUNT, WOOD, CLAY, STONE, GOLD, TOOLMAKER, HUT, FIELD, FIRST_CARD };
enum { T_DICE_BAR, T_FOOD, T_RESOURCE, T_ROLL, T_POINTS, T_TOOL_ONCE, T_AGRI, T_TOOL, T_EXTRA, T_ANY, T_COUNT };
enum { B_FIXED, B_COUNT, B_RANGE };
enum { M_PLACE, M_TAKE, M_BUY, M_SKIP, M_ROLL, M_TOOLS, M_PICK, M_ANY, M_FEED, M_STARVE, M_REVEAL, M_DRAW };
#define WHAT_BAR 5

typedef struct { int kind, amount, res, dice, value; } CardT;
typedef struct { int kind, cost[4], points, count, kinds, lo, hi; } BldT;

typedef struct {
    int start_people, start_food, max_people, max_agri, max_tools, max_tv;
    int div[5], val[4], cap[8]; /* cap -1: no limit */
    int ncost, cost[MAXCP];
    int bar[6]; /* 0-3 a resource, 4 tool, 5 agriculture */
    int ncards;
    CardT card[MAXC];
    int nb;
    BldT b[MAXB];
} Prof;

typedef struct {
    int people, food, agri, res[4];
    int ntools, tools[MAXT], nused, used[MAXT];
    int nonce, once[MAXC], nany, anyc[MAXC], ncards, cards[MAXC];
    int nbld, bld[MAXB][2];
    int points, card_points, starved;
    int placed[MAXPL];
} Pl;

typedef struct {
    int n, ncp, nst, np;
    int round, start, phase, actor, what, ndice, taker, resume, ended;
    int display[MAXCP], tops[MAXP], left[MAXP];
    int nuc, uc[MAXC], nub, ub[MAXB];
    int co_set, nco, co[MAXC];
    int bo_set, nbo[MAXP], bo[MAXP][MAXB];
    int nd, dice[MAXD];
    Pl pl[MAXP];
} G;

typedef struct { uint32_t mt[624]; int index; } Rng;

typedef struct {
    Prof prof;
    G g;
    Rng *rng;
    int nrng;
    int seat_rng[MAXP];
    int chance_rng;
    int64_t *keys;
    int keys_cap, nkeys;
    int32_t *log;
    int log_cap, log_len, log_full;
    int err;
} Ctx;

/* --- CPython's random.random() ------------------------------------------------------------------ */
static uint32_t genrand_uint32(Rng *r) {
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y;
    uint32_t *mt = r->mt;
    if (r->index >= 624) {
        int kk;
        for (kk = 0; kk < 624 - 397; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + 397] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < 623; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + (397 - 624)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (mt[623] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[623] = mt[396] ^ (y >> 1) ^ mag01[y & 0x1U];
        r->index = 0;
    }
    y = mt[r->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

static double rnd(Rng *r) {
    uint32_t a = genrand_uint32(r) >> 5, b = genrand_uint32(r) >> 6;
    return ((double)a * 67108864.0 + (double)b) * (1.0 / 9007199254740992.0);
}

static int rndint(Rng *r, int n) { return (int)(rnd(r) * (double)n); }

/* --- small list helpers ------------------------------------------------------------------------- */
static void sort_asc(int *a, int n) {
    for (int i = 1; i < n; i++) {
        int v = a[i], j = i - 1;
        while (j >= 0 && a[j] > v) { a[j + 1] = a[j]; j--; }
        a[j + 1] = v;
    }
}

static void sort_desc(int *a, int n) {
    for (int i = 1; i < n; i++) {
        int v = a[i], j = i - 1;
        while (j >= 0 && a[j] < v) { a[j + 1] = a[j]; j--; }
        a[j + 1] = v;
    }
}

/* remove the first v (list.remove); 0 if absent */
static int list_remove(int *a, int *n, int v) {
    for (int i = 0; i < *n; i++) {
        if (a[i] == v) {
            memmove(a + i, a + i + 1, (size_t)(*n - i - 1) * sizeof(int));
            (*n)--;
            return 1;
        }
    }
    return 0;
}

static int count_of(const int *a, int n, int v) {
    int c = 0;
    for (int i = 0; i < n; i++) c += a[i] == v;
    return c;
}

/* unused(tools, used): multiset difference, in tools' order */
static int unused_tools(const Pl *p, int *out) {
    int rest[MAXT], nr = p->nused, k = 0;
    memcpy(rest, p->used, sizeof(int) * (size_t)nr);
    for (int i = 0; i < p->ntools; i++) {
        if (!list_remove(rest, &nr, p->tools[i])) out[k++] = p->tools[i];
    }
    return k;
}

/* --- readers ------------------------------------------------------------------------------------ */
static int sum_placed(const G *g, const Pl *p) {
    int s = 0;
    for (int i = 0; i < g->np; i++) s += p->placed[i];
    return s;
}

/* reveal_target: 0 nothing, 1 card (slot in *k), 2 building (stack in *k) */
static int reveal_target(const G *g, int *k) {
    if (g->resume == P_PLACE) {
        for (int i = 0; i < g->ncp; i++) {
            if (g->display[i] < 0 && g->nuc > 0) { *k = i; return 1; }
        }
    }
    for (int i = 0; i < g->nst; i++) {
        if (g->tops[i] < 0 && g->left[i] > 0) { *k = i; return 2; }
    }
    return 0;
}

/* place_room: 1 and (lo, hi) when open, else 0 */
static int place_room(const Ctx *c, int seat, int idx, int *lo, int *hi) {
    const G *g = &c->g;
    const Pl *p = &g->pl[seat];
    if (p->placed[idx]) return 0;
    int left = p->people - sum_placed(g, p);
    if (left < 1) return 0;
    if (idx > FIELD) {
        int k = idx - FIRST_CARD;
        int item = k < g->ncp ? g->display[k] : g->tops[k - g->ncp];
        if (item < 0) return 0;
        for (int q = 0; q < g->n; q++) if (g->pl[q].placed[idx]) return 0;
        *lo = *hi = 1;
        return 1;
    }
    int occ = 0, colours = 0;
    for (int q = 0; q < g->n; q++) {
        if (g->pl[q].placed[idx]) { occ += g->pl[q].placed[idx]; colours++; }
    }
    int cap = c->prof.cap[idx];
    if (idx >= TOOLMAKER) {
        int need = cap > 0 ? cap : 1;
        if (occ || need > left) return 0;
        if (g->n <= 3) {
            int used = 0;
            for (int i = TOOLMAKER; i <= FIELD; i++) {
                for (int q = 0; q < g->n; q++) if (g->pl[q].placed[i]) { used++; break; }
            }
            if (used >= 2) return 0;
        }
        *lo = *hi = need;
        return 1;
    }
    int room = cap < 0 ? left : (left < cap - occ ? left : cap - occ);
    if (room < 1) return 0;
    if (idx != HUNT && colours && (g->n == 2 || (g->n == 3 && colours >= 2))) return 0;
    *lo = 1;
    *hi = room;
    return 1;
}

static int can_place(const Ctx *c, int seat) {
    const G *g = &c->g;
    const Pl *p = &g->pl[seat];
    int lo, hi;
    if (p->people - sum_placed(g, p) < 1) return 0;
    if (!p->placed[HUNT] && c->prof.cap[HUNT] < 0) return 1;
    for (int i = 0; i < g->np; i++) if (place_room(c, seat, i, &lo, &hi)) return 1;
    return 0;
}

static int once_values(const Ctx *c, const Pl *p, int *out) {
    for (int i = 0; i < p->nonce; i++) out[i] = c->prof.card[p->once[i]].value;
    sort_desc(out, p->nonce);
    return p->nonce;
}

static int tools_can_help(const Ctx *c, const Pl *p, int what, const int *dice, int nd) {
    if (!(p->nused < p->ntools || p->nonce > 0)) return 0;
    int div = c->prof.div[what], pips = 0, extra = 0, un[MAXT];
    for (int i = 0; i < nd; i++) pips += dice[i];
    int nu = unused_tools(p, un);
    for (int i = 0; i < nu; i++) extra += un[i];
    for (int i = 0; i < p->nonce; i++) extra += c->prof.card[p->once[i]].value;
    return (pips + extra) / div > pips / div;
}

static int can_pay_food(const Ctx *c, const Pl *p) {
    int short_ = p->people - p->food;
    if (short_ < 0) short_ = 0;
    int have = p->res[0] + p->res[1] + p->res[2] + p->res[3];
    for (int i = 0; i < p->nany; i++) have += c->prof.card[p->anyc[i]].amount;
    return short_ <= have;
}

/* --- payments (engine.payments / building_payments): count them, or fill the nth ---------------- */
/* Walks the payments of `size` out of caps in the engine's order; returns how many there are; when
 * 0 <= nth < count, writes that one to out. `base` is how many came before (for concatenation). */
static int payments(int size, const int *caps, int base, int nth, int kinds, int *out) {
    int k = base;
    int a0 = caps[0] < size ? caps[0] : size;
    for (int a = a0; a >= 0; a--) {
        int r1 = size - a;
        int b0 = caps[1] < r1 ? caps[1] : r1;
        for (int b = b0; b >= 0; b--) {
            int r2 = r1 - b;
            int c0 = caps[2] < r2 ? caps[2] : r2;
            for (int cc = c0; cc >= 0; cc--) {
                int d = r2 - cc;
                if (d <= caps[3]) {
                    if (kinds > 0 && (a > 0) + (b > 0) + (cc > 0) + (d > 0) != kinds) continue;
                    if (k == nth) { out[0] = a; out[1] = b; out[2] = cc; out[3] = d; }
                    k++;
                }
            }
        }
    }
    return k - base;
}

static int building_payments(const BldT *b, const int *res, int nth, int *out) {
    if (b->kind == B_FIXED) {
        for (int i = 0; i < 4; i++) if (b->cost[i] > res[i]) return 0;
        if (nth == 0) memcpy(out, b->cost, 4 * sizeof(int));
        return 1;
    }
    if (b->kind == B_COUNT) return payments(b->count, res, 0, nth, b->kinds, out);
    int total = 0;
    for (int size = b->lo; size <= b->hi; size++) total += payments(size, res, total, nth, 0, out);
    return total;
}

/* any_moves: the amounts of the unused cards, sorted and distinct */
static int any_amounts(const Ctx *c, const Pl *p, int *am) {
    int n = 0;
    for (int i = 0; i < p->nany; i++) {
        int v = c->prof.card[p->anyc[i]].amount, seen = 0;
        for (int j = 0; j < n; j++) if (am[j] == v) seen = 1;
        if (!seen) am[n++] = v;
    }
    sort_asc(am, n);
    return n;
}

static int any_moves(const Ctx *c, const Pl *p, int base, int nth, int *out) {
    int am[MAXC], n = any_amounts(c, p, am), total = 0;
    for (int i = 0; i < n; i++) {
        int caps[4] = {am[i], am[i], am[i], am[i]};
        total += payments(am[i], caps, base + total, nth, 0, out);
    }
    return total;
}

/* --- the move log ------------------------------------------------------------------------------- */
/* Every move is one int64 key: the type in bits 0-3 and its arguments packed above (see fast.py's
 * _unpack). A move that does not fit (huge payments, one-time tools) gets the key -(offset + 1) and
 * its record (type, nargs, args...) at that offset of the record log. */
static int64_t pack(int type, const int *a, int na) {
    int64_t k = type;
    switch (type) {
    case M_PLACE:
        if (a[1] < 0 || a[1] >= (1 << 20)) return -1;
        return k | (int64_t)a[0] << 4 | (int64_t)a[1] << 9;
    case M_TAKE: case M_SKIP: return k | (int64_t)a[0] << 4;
    case M_BUY:
        for (int i = 1; i <= 4; i++) if (a[i] < 0 || a[i] > 1023) return -1;
        return k | (int64_t)a[0] << 4 | (int64_t)a[1] << 9 | (int64_t)a[2] << 19 | (int64_t)a[3] << 29 |
               (int64_t)a[4] << 39;
    case M_ANY: case M_FEED:
        for (int i = 0; i < 4; i++) if (a[i] < 0 || a[i] > 4095) return -1;
        return k | (int64_t)a[0] << 4 | (int64_t)a[1] << 16 | (int64_t)a[2] << 28 | (int64_t)a[3] << 40;
    case M_ROLL: {
        int cnt[6] = {0, 0, 0, 0, 0, 0};
        for (int i = 1; i < na; i++) cnt[a[i] - 1]++;
        k |= (int64_t)a[0] << 4;
        for (int f = 0; f < 6; f++) {
            if (cnt[f] > 127) return -1;
            k |= (int64_t)cnt[f] << (7 + 7 * f);
        }
        return k;
    }
    case M_TOOLS: {
        /* tools: 4 bits per value 1-9 (bits 4-39); one-time tools: 2 bits per value 1-11 (bits 40-61) */
        int cnt[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0}, once[11] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        for (int i = 1; i <= a[0]; i++) {
            if (a[i] < 1 || a[i] > 9) return -1;
            cnt[a[i] - 1]++;
        }
        for (int i = 1 + a[0]; i < na; i++) {
            if (a[i] < 1 || a[i] > 11) return -1;
            once[a[i] - 1]++;
        }
        for (int v = 0; v < 9; v++) {
            if (cnt[v] > 15) return -1;
            k |= (int64_t)cnt[v] << (4 + 4 * v);
        }
        for (int v = 0; v < 11; v++) {
            if (once[v] > 3) return -1;
            k |= (int64_t)once[v] << (40 + 2 * v);
        }
        return k;
    }
    case M_PICK: return k | (int64_t)a[0] << 4;
    case M_STARVE: return k;
    case M_REVEAL: return k | (int64_t)a[0] << 4 | (int64_t)a[1] << 5;
    case M_DRAW: return k | (int64_t)a[0] << 4;
    default: return -1;
    }
}

static void log_move(Ctx *c, int type, const int *args, int nargs) {
    if (!c->keys) return;
    if (c->nkeys >= c->keys_cap) { c->log_full = 1; return; }
    int64_t k = pack(type, args, nargs);
    if (k < 0) {
        if (c->log_len + 2 + nargs > c->log_cap) { c->log_full = 1; return; }
        k = -(int64_t)c->log_len - 1;
        c->log[c->log_len++] = type;
        c->log[c->log_len++] = nargs;
        for (int i = 0; i < nargs; i++) c->log[c->log_len++] = args[i];
    }
    c->keys[c->nkeys++] = k;
}

/* --- transitions -------------------------------------------------------------------------------- */
static void add_tool(Ctx *c, Pl *t) {
    const Prof *pr = &c->prof;
    if (t->ntools < pr->max_tools) {
        if (t->ntools >= MAXT) { c->err = SA_INTERNAL; return; }
        t->tools[t->ntools++] = 1;
        sort_desc(t->tools, t->ntools);
        return;
    }
    if (t->ntools == 0) return;
    int low = t->tools[t->ntools - 1];
    if (low >= pr->max_tv) return;
    t->tools[t->ntools - 1] = low + 1;
    sort_desc(t->tools, t->ntools);
    if (count_of(t->used, t->nused, low) == count_of(t->tools, t->ntools, low) + 1) {
        list_remove(t->used, &t->nused, low);
        t->used[t->nused++] = low + 1;
        sort_desc(t->used, t->nused);
    }
}

static void gain(Pl *t, int what, int amount) {
    if (what == HUNT) t->food += amount;
    else t->res[what - 1] += amount;
}

static void pay(Pl *t, const int *p) {
    for (int i = 0; i < 4; i++) t->res[i] -= p[i];
}

static void starve(Pl *t) {
    t->food = 0;
    t->points -= 10;
    t->starved += 1;
}

static void end_round(Ctx *c) {
    G *g = &c->g;
    for (int k = 0; k < g->nst; k++) {
        if (g->tops[k] < 0 && g->left[k] == 0) { g->phase = P_OVER; g->ended = 1; return; }
    }
    int rest[MAXCP], nr = 0;
    for (int k = 0; k < g->ncp; k++) if (g->display[k] >= 0) rest[nr++] = g->display[k];
    if (g->nuc < g->ncp - nr) { g->phase = P_OVER; g->ended = 2; return; }
    for (int k = 0; k < g->ncp; k++) g->display[k] = k < nr ? rest[k] : -1;
    g->round += 1;
    g->start = (g->start + 1) % g->n;
    g->actor = g->start;
    for (int i = 0; i < g->n; i++) g->pl[i].nused = 0;
    g->phase = P_REVEAL;
    g->resume = P_PLACE;
}

static void next_feeder(Ctx *c) {
    G *g = &c->g;
    int nxt = (g->actor + 1) % g->n;
    if (nxt == g->start) end_round(c);
    else g->actor = nxt;
}

static void start_feeding(Ctx *c) {
    G *g = &c->g;
    for (int i = 0; i < g->n; i++) g->pl[i].food += g->pl[i].agri;
    g->phase = P_FEED;
    g->actor = g->start;
    g->what = -1;
    g->ndice = 0;
}

static void own_card(Ctx *c, Pl *t, int cid) {
    if (t->ncards >= MAXC) { c->err = SA_INTERNAL; return; }
    t->cards[t->ncards++] = cid;
    sort_asc(t->cards, t->ncards);
}

static void card_effect(Ctx *c, Pl *t, int cid) {
    G *g = &c->g;
    const Prof *pr = &c->prof;
    const CardT *top = &pr->card[cid];
    switch (top->kind) {
    case T_FOOD: t->food += top->amount; break;
    case T_RESOURCE: t->res[top->res] += top->amount; break;
    case T_POINTS: t->points += top->amount; t->card_points += top->amount; break;
    case T_AGRI: t->agri = t->agri + top->amount < pr->max_agri ? t->agri + top->amount : pr->max_agri; break;
    case T_TOOL: for (int i = 0; i < top->amount; i++) add_tool(c, t); break;
    case T_TOOL_ONCE:
        if (t->nonce >= MAXC) { c->err = SA_INTERNAL; return; }
        t->once[t->nonce++] = cid;
        sort_asc(t->once, t->nonce);
        break;
    case T_ANY:
        if (t->nany >= MAXC) { c->err = SA_INTERNAL; return; }
        t->anyc[t->nany++] = cid;
        sort_asc(t->anyc, t->nany);
        break;
    case T_ROLL: g->what = top->res + 1; g->ndice = top->dice; g->phase = P_ROLL; break;
    case T_DICE_BAR: g->what = WHAT_BAR; g->ndice = g->n; g->taker = g->actor; g->phase = P_ROLL; break;
    case T_EXTRA: if (g->nuc > 0) g->phase = P_DRAW; break;
    default: break;
    }
}

static void remove_unseen_card(Ctx *c, int cid) {
    G *g = &c->g;
    if (!list_remove(g->uc, &g->nuc, cid)) { c->err = SA_INTERNAL; return; }
    if (g->co_set && g->nco > 0) list_remove(g->co, &g->nco, g->co[0]);
}

/* Each move is (type, args); see the M_ codes and fast.py. */
static void step(Ctx *c, int type, const int *a, int na) {
    G *g = &c->g;
    const Prof *pr = &c->prof;
    Pl *t = &g->pl[g->actor];
    (void)na;
    switch (type) {
    case M_PLACE: {
        int idx = a[0], n;
        if (idx <= 4) n = a[1];
        else if (idx <= FIELD) n = pr->cap[idx] > 0 ? pr->cap[idx] : 1;
        else n = 1;
        t->placed[idx] = n;
        g->actor = (g->actor + 1) % g->n;
        return;
    }
    case M_ROLL: {
        g->nd = na - 1;
        for (int i = 0; i < g->nd; i++) g->dice[i] = a[1 + i];
        if (a[0] == WHAT_BAR) { g->phase = P_BAR; g->actor = g->taker; return; }
        if (tools_can_help(c, t, a[0], g->dice, g->nd)) { g->phase = P_TOOLS; return; }
        int pips = 0;
        for (int i = 0; i < g->nd; i++) pips += g->dice[i];
        gain(t, a[0], pips / pr->div[a[0]]);
        g->nd = 0;
        g->phase = P_ACT;
        return;
    }
    case M_TAKE: {
        int idx = a[0], n = t->placed[idx];
        t->placed[idx] = 0;
        if (idx <= 4) { g->what = idx; g->ndice = n; g->phase = P_ROLL; }
        else if (idx == TOOLMAKER) add_tool(c, t);
        else if (idx == HUT) { if (t->people < pr->max_people) t->people += 1; }
        else t->agri = t->agri + 1 < pr->max_agri ? t->agri + 1 : pr->max_agri;
        return;
    }
    case M_TOOLS: {
        int nv = a[0], total = 0, pips = 0;
        if (t->nused + nv > MAXT) { c->err = SA_INTERNAL; return; }
        for (int i = 0; i < nv; i++) { t->used[t->nused++] = a[1 + i]; total += a[1 + i]; }
        if (nv) sort_desc(t->used, t->nused);
        for (int i = 1 + nv; i < na; i++) {
            int v = a[i];
            total += v;
            for (int j = 0; j < t->nonce; j++) {
                if (pr->card[t->once[j]].value == v) { list_remove(t->once, &t->nonce, t->once[j]); break; }
            }
        }
        for (int i = 0; i < g->nd; i++) pips += g->dice[i];
        gain(t, g->what, (pips + total) / pr->div[g->what]);
        g->nd = 0;
        g->phase = P_ACT;
        return;
    }
    case M_BUY: {
        int idx = a[0];
        t->placed[idx] = 0;
        pay(t, a + 1);
        int k = idx - FIRST_CARD;
        if (k < g->ncp) {
            int cid = g->display[k];
            if (cid < 0) { c->err = SA_INTERNAL; return; } /* only in a corrupt position */
            g->display[k] = -1;
            own_card(c, t, cid);
            card_effect(c, t, cid);
            return;
        }
        k -= g->ncp;
        int bid = g->tops[k];
        if (bid < 0) { c->err = SA_INTERNAL; return; }
        const BldT *b = &pr->b[bid];
        int pts = b->kind == B_FIXED ? b->points
                                     : a[1] * pr->val[0] + a[2] * pr->val[1] + a[3] * pr->val[2] + a[4] * pr->val[3];
        if (t->nbld >= MAXB) { c->err = SA_INTERNAL; return; }
        t->bld[t->nbld][0] = bid;
        t->bld[t->nbld][1] = pts;
        t->nbld++;
        t->points += pts;
        g->tops[k] = -1;
        if (g->left[k] > 0) { g->phase = P_REVEAL; g->resume = P_ACT; }
        return;
    }
    case M_SKIP: t->placed[a[0]] = 0; return;
    case M_PICK: {
        if (!list_remove(g->dice, &g->nd, a[0])) { c->err = SA_INTERNAL; return; }
        int reward = pr->bar[a[0] - 1];
        if (reward == 4) add_tool(c, t);
        else if (reward == 5) t->agri = t->agri + 1 < pr->max_agri ? t->agri + 1 : pr->max_agri;
        else t->res[reward] += 1;
        if (g->nd) g->actor = (g->actor + 1) % g->n;
        else { g->actor = g->taker; g->phase = P_ACT; }
        return;
    }
    case M_ANY: {
        int amount = a[0] + a[1] + a[2] + a[3];
        for (int j = 0; j < t->nany; j++) {
            if (pr->card[t->anyc[j]].amount == amount) { list_remove(t->anyc, &t->nany, t->anyc[j]); break; }
        }
        for (int i = 0; i < 4; i++) t->res[i] += a[i];
        return;
    }
    case M_FEED: t->food = 0; pay(t, a); next_feeder(c); return;
    case M_STARVE: starve(t); next_feeder(c); return;
    case M_REVEAL: {
        int k, kind = reveal_target(g, &k);
        if (kind == 1) {
            g->display[k] = a[1];
            remove_unseen_card(c, a[1]);
        } else if (kind == 2) {
            g->tops[k] = a[1];
            g->left[k] -= 1;
            if (!list_remove(g->ub, &g->nub, a[1])) { c->err = SA_INTERNAL; return; }
            if (g->bo_set && g->nbo[k] > 0) list_remove(g->bo[k], &g->nbo[k], g->bo[k][0]);
        } else {
            c->err = SA_INTERNAL;
        }
        return;
    }
    case M_DRAW:
        remove_unseen_card(c, a[0]);
        own_card(c, t, a[0]);
        g->phase = P_ACT;
        return;
    default: c->err = SA_INTERNAL; return;
    }
}

static void settle(Ctx *c) {
    G *g = &c->g;
    for (int guard = 0; guard < 1000000 && !c->err; guard++) {
        int k;
        switch (g->phase) {
        case P_REVEAL:
            if (reveal_target(g, &k)) return;
            g->phase = g->resume;
            continue;
        case P_PLACE: {
            for (int j = 0; j < g->n; j++) {
                int seat = (g->actor + j) % g->n;
                if (can_place(c, seat)) { g->actor = seat; return; }
            }
            g->phase = P_ACT;
            g->actor = g->start;
            continue;
        }
        case P_ACT: {
            const Pl *p = &g->pl[g->actor];
            for (int i = 0; i < g->np; i++) if (p->placed[i]) return;
            int nxt = (g->actor + 1) % g->n;
            if (nxt == g->start) { start_feeding(c); continue; }
            g->actor = nxt;
            continue;
        }
        case P_BAR: {
            if (g->nd < 1) return;
            for (int i = 1; i < g->nd; i++) if (g->dice[i] != g->dice[0]) return;
            int face = g->dice[0];
            step(c, M_PICK, &face, 1);
            continue;
        }
        case P_FEED: {
            Pl *p = &g->pl[g->actor];
            int short_ = p->people - p->food;
            if (short_ > 0 && can_pay_food(c, p)) return;
            if (short_ > 0) starve(p);
            else p->food -= p->people;
            next_feeder(c);
            continue;
        }
        default: return;
        }
    }
    if (!c->err) c->err = SA_INTERNAL;
}

/* --- chance (engine.sample_chance) -------------------------------------------------------------- */
static int sample_chance(Ctx *c, int *a, int *na) {
    G *g = &c->g;
    Rng *r = &c->rng[c->chance_rng];
    if (g->phase == P_ROLL) {
        if (g->ndice < 0 || g->ndice > MAXD - 1 || g->what < 0) return SA_INTERNAL;
        a[0] = g->what;
        for (int i = 0; i < g->ndice; i++) a[1 + i] = rndint(r, 6) + 1;
        sort_asc(a + 1, g->ndice);
        *na = 1 + g->ndice;
        return M_ROLL;
    }
    if (g->phase == P_REVEAL) {
        int k, kind = reveal_target(g, &k);
        if (kind == 1) {
            a[0] = 0;
            a[1] = g->co_set && g->nco > 0 ? g->co[0] : g->uc[rndint(r, g->nuc)];
        } else if (kind == 2) {
            a[0] = 1;
            a[1] = g->bo_set && g->nbo[k] > 0 ? g->bo[k][0] : (g->nub > 0 ? g->ub[rndint(r, g->nub)] : -1);
            if (a[1] < 0) return SA_INTERNAL;
        } else {
            return SA_INTERNAL;
        }
        *na = 2;
        return M_REVEAL;
    }
    /* P_DRAW */
    if (g->nuc < 1 && !(g->co_set && g->nco > 0)) return SA_INTERNAL;
    a[0] = g->co_set && g->nco > 0 ? g->co[0] : g->uc[rndint(r, g->nuc)];
    *na = 1;
    return M_DRAW;
}

/* --- RandomPlayer.choose ------------------------------------------------------------------------ */
static int choose(Ctx *c, int *a, int *na) {
    G *g = &c->g;
    const Prof *pr = &c->prof;
    int seat = g->actor;
    Rng *r = &c->rng[c->seat_rng[seat]];
    const Pl *p = &g->pl[seat];
    int ph = g->phase, lo, hi;
    if (ph == P_PLACE && p->nany == 0) {
        for (long guard = 0; guard < 100000000L; guard++) {
            int idx = rndint(r, g->np);
            if (place_room(c, seat, idx, &lo, &hi)) {
                a[0] = idx;
                a[1] = idx <= 4 ? lo + rndint(r, hi - lo + 1) : 0;
                *na = 2;
                return M_PLACE;
            }
        }
        return SA_INTERNAL;
    }
    if (ph == P_PLACE || ph == P_ACT) {
        int opts[MAXPL][3], nopt = 0;
        if (ph == P_PLACE) {
            for (int i = 0; i < g->np; i++) {
                if (place_room(c, seat, i, &lo, &hi)) { opts[nopt][0] = i; opts[nopt][1] = lo; opts[nopt][2] = hi; nopt++; }
            }
        } else {
            for (int i = 0; i < g->np; i++) if (p->placed[i]) opts[nopt++][0] = i;
        }
        int extra = p->nany ? 1 : 0;
        int pick = rndint(r, nopt + extra);
        if (pick == nopt) {
            int nany = any_moves(c, p, 0, -1, a);
            if (nany < 1) return SA_INTERNAL;
            any_moves(c, p, 0, rndint(r, nany), a);
            *na = 4;
            return M_ANY;
        }
        int idx = opts[pick][0];
        if (ph == P_PLACE) {
            lo = opts[pick][1];
            hi = opts[pick][2];
            a[0] = idx;
            a[1] = idx <= 4 ? lo + rndint(r, hi - lo + 1) : 0;
            *na = 2;
            return M_PLACE;
        }
        a[0] = idx;
        if (idx <= FIELD) { *na = 1; return M_TAKE; }
        int npay;
        const BldT *b = NULL;
        if (idx < FIRST_CARD + g->ncp) {
            npay = payments(pr->cost[idx - FIRST_CARD], p->res, 0, -1, 0, a + 1);
        } else {
            int bid = g->tops[idx - FIRST_CARD - g->ncp];
            if (bid >= 0) b = &pr->b[bid];
            npay = b ? building_payments(b, p->res, -1, a + 1) : 0;
        }
        int k = rndint(r, npay + 1);
        if (k == npay) { *na = 1; return M_SKIP; }
        if (idx < FIRST_CARD + g->ncp) payments(pr->cost[idx - FIRST_CARD], p->res, 0, k, 0, a + 1);
        else building_payments(b, p->res, k, a + 1);
        *na = 5;
        return M_BUY;
    }
    if (ph == P_TOOLS) {
        int un[MAXT], nu = unused_tools(p, un), ov[MAXC], no = once_values(c, p, ov), nv = 0, n = 1;
        for (int i = 0; i < nu; i++) if (rnd(r) < 0.5) a[1 + nv++] = un[i];
        a[0] = nv;
        n = 1 + nv;
        for (int i = 0; i < no; i++) if (rnd(r) < 0.5) a[n++] = ov[i];
        *na = n;
        return M_TOOLS;
    }
    if (ph == P_BAR) {
        int faces[6], nf = 0;
        for (int f = 1; f <= 6; f++) if (count_of(g->dice, g->nd, f)) faces[nf++] = f;
        if (nf < 1) return SA_INTERNAL;
        a[0] = faces[rndint(r, nf)];
        *na = 1;
        return M_PICK;
    }
    if (ph == P_FEED) {
        int need = p->people - p->food;
        if (need < 0) need = 0;
        int tot = p->res[0] + p->res[1] + p->res[2] + p->res[3];
        int nfeed = need <= tot ? payments(need, p->res, 0, -1, 0, a) : 0;
        int nany = p->nany ? any_moves(c, p, 0, -1, a) : 0;
        int k = rndint(r, 1 + nfeed + nany);
        if (k == 0) { *na = 0; return M_STARVE; }
        k -= 1;
        if (k < nfeed) { payments(need, p->res, 0, k, 0, a); *na = 4; return M_FEED; }
        any_moves(c, p, 0, k - nfeed, a);
        *na = 4;
        return M_ANY;
    }
    return SA_INTERNAL;
}

/* --- decoding and encoding ---------------------------------------------------------------------- */
typedef struct { const int32_t *a; int n, i, bad; } Rd;

static int rd(Rd *r, int lo, int hi) {
    if (r->bad || r->i >= r->n) { r->bad = 1; return lo; }
    int v = r->a[r->i++];
    if (v < lo || v > hi) { r->bad = 1; return lo; }
    return v;
}

static int read_profile(Prof *p, const int32_t *a, int n) {
    Rd r = {a, n, 0, 0};
    p->start_people = rd(&r, 1, 30);
    p->start_food = rd(&r, 0, 200);
    p->max_people = rd(&r, 1, 30);
    p->max_agri = rd(&r, 0, 30);
    p->max_tools = rd(&r, 0, MAXT);
    p->max_tv = rd(&r, 1, 9);
    for (int i = 0; i < 5; i++) p->div[i] = rd(&r, 1, 60);
    for (int i = 0; i < 4; i++) p->val[i] = rd(&r, 0, 60);
    for (int i = 0; i < 8; i++) p->cap[i] = rd(&r, -1, 40);
    for (int i = 0; i < 8; i++) if (p->cap[i] == 0) r.bad = 1;
    p->ncost = rd(&r, 1, MAXCP);
    for (int i = 0; i < p->ncost; i++) p->cost[i] = rd(&r, 1, 20);
    for (int i = 0; i < 6; i++) p->bar[i] = rd(&r, 0, 5);
    p->ncards = rd(&r, 1, MAXC);
    for (int i = 0; i < p->ncards; i++) {
        CardT *cd = &p->card[i];
        cd->kind = rd(&r, 0, T_COUNT - 1);
        cd->amount = rd(&r, 0, 20);
        cd->res = rd(&r, -1, 3);
        cd->dice = rd(&r, 0, 10);
        cd->value = rd(&r, 0, 20);
        if ((cd->kind == T_RESOURCE || cd->kind == T_ROLL) && cd->res < 0) r.bad = 1;
    }
    p->nb = rd(&r, 1, MAXB);
    for (int i = 0; i < p->nb; i++) {
        BldT *b = &p->b[i];
        b->kind = rd(&r, 0, 2);
        for (int j = 0; j < 4; j++) b->cost[j] = rd(&r, 0, 99);
        b->points = rd(&r, 0, 200);
        b->count = rd(&r, 0, 20);
        b->kinds = rd(&r, 0, 4);
        b->lo = rd(&r, 0, 20);
        b->hi = rd(&r, 0, 20);
        if (b->kind == B_COUNT && b->kinds < 1) r.bad = 1;
    }
    return r.bad || r.i != n ? SA_BAD_PROFILE : 0;
}

static int read_ids(Rd *r, int *out, int max, int nids) {
    int n = rd(r, 0, max);
    for (int i = 0; i < n; i++) out[i] = rd(r, 0, nids - 1);
    return n;
}

static int read_pos(Ctx *c, const int32_t *a, int n) {
    G *g = &c->g;
    const Prof *pr = &c->prof;
    Rd r = {a, n, 0, 0};
    memset(g, 0, sizeof(*g));
    g->n = rd(&r, 1, MAXP);
    g->ncp = rd(&r, 0, MAXCP);
    g->nst = rd(&r, 0, MAXP);
    g->np = FIRST_CARD + g->ncp + g->nst;
    if (g->ncp != pr->ncost) r.bad = 1;
    g->round = rd(&r, 0, 1000000);
    g->start = rd(&r, 0, g->n - 1);
    g->phase = rd(&r, 0, P_COUNT - 1);
    g->actor = rd(&r, 0, g->n - 1);
    g->what = rd(&r, -1, WHAT_BAR);
    g->ndice = rd(&r, 0, MAXD - 2);
    g->taker = rd(&r, 0, g->n - 1);
    g->resume = rd(&r, 0, P_COUNT - 1);
    g->ended = rd(&r, 0, 2);
    for (int i = 0; i < g->ncp; i++) g->display[i] = rd(&r, -1, pr->ncards - 1);
    for (int i = 0; i < g->nst; i++) g->tops[i] = rd(&r, -1, pr->nb - 1);
    for (int i = 0; i < g->nst; i++) g->left[i] = rd(&r, 0, MAXB);
    g->nuc = read_ids(&r, g->uc, MAXC, pr->ncards);
    g->nub = read_ids(&r, g->ub, MAXB, pr->nb);
    g->co_set = rd(&r, 0, 1);
    if (g->co_set) g->nco = read_ids(&r, g->co, MAXC, pr->ncards);
    g->bo_set = rd(&r, 0, 1);
    if (g->bo_set) {
        if (rd(&r, 0, MAXP) != g->nst) r.bad = 1;
        for (int k = 0; k < g->nst && !r.bad; k++) g->nbo[k] = read_ids(&r, g->bo[k], MAXB, pr->nb);
    }
    g->nd = rd(&r, 0, MAXD - 1);
    for (int i = 0; i < g->nd; i++) g->dice[i] = rd(&r, 1, 6);
    for (int s = 0; s < g->n && !r.bad; s++) {
        Pl *p = &g->pl[s];
        p->people = rd(&r, 0, 1000);
        p->food = rd(&r, 0, 1000000);
        p->agri = rd(&r, 0, 1000);
        for (int i = 0; i < 4; i++) p->res[i] = rd(&r, 0, 1000000);
        p->ntools = rd(&r, 0, MAXT);
        for (int i = 0; i < p->ntools; i++) p->tools[i] = rd(&r, 0, 1000);
        p->nused = rd(&r, 0, p->ntools);
        for (int i = 0; i < p->nused; i++) p->used[i] = rd(&r, 0, 1000);
        p->nonce = read_ids(&r, p->once, MAXC, pr->ncards);
        p->nany = read_ids(&r, p->anyc, MAXC, pr->ncards);
        p->ncards = read_ids(&r, p->cards, MAXC, pr->ncards);
        p->nbld = rd(&r, 0, MAXB);
        for (int i = 0; i < p->nbld; i++) {
            p->bld[i][0] = rd(&r, 0, pr->nb - 1);
            p->bld[i][1] = rd(&r, -1000000, 1000000);
        }
        p->points = rd(&r, -1000000, 1000000);
        p->card_points = rd(&r, -1000000, 1000000);
        p->starved = rd(&r, 0, 1000000);
        if (rd(&r, 0, MAXPL) != g->np) r.bad = 1;
        for (int i = 0; i < g->np && !r.bad; i++) p->placed[i] = rd(&r, 0, 1000);
        for (int i = 0; i < p->nonce; i++) if (pr->card[p->once[i]].kind != T_TOOL_ONCE) r.bad = 1;
        for (int i = 0; i < p->nany; i++) if (pr->card[p->anyc[i]].kind != T_ANY) r.bad = 1;
    }
    if (r.bad || r.i != n) return SA_BAD_POSITION;
    /* what the transitions index with must be in range */
    if ((g->phase == P_ROLL || g->phase == P_TOOLS) && g->what < 0) return SA_BAD_POSITION;
    if (g->phase == P_TOOLS && g->what == WHAT_BAR) return SA_BAD_POSITION;
    if (g->phase == P_BAR && g->nd < 1) return SA_BAD_POSITION;
    for (int s = 0; s < g->n; s++) {
        for (int i = FIRST_CARD; i < g->np; i++) {
            int k = i - FIRST_CARD;
            if (g->pl[s].placed[i] && ((k < g->ncp && g->display[k] < 0) || (k >= g->ncp && g->tops[k - g->ncp] < 0)))
                return SA_BAD_POSITION;
        }
    }
    return 0;
}

typedef struct { int32_t *a; int n, i, full; } Wr;

static void wr(Wr *w, int v) {
    if (w->i >= w->n) { w->full = 1; return; }
    w->a[w->i++] = v;
}

static void wr_ids(Wr *w, const int *ids, int n) {
    wr(w, n);
    for (int i = 0; i < n; i++) wr(w, ids[i]);
}

static int write_pos(const G *g, int32_t *out, int cap, int32_t *len) {
    Wr w = {out, cap, 0, 0};
    wr(&w, g->n); wr(&w, g->ncp); wr(&w, g->nst);
    wr(&w, g->round); wr(&w, g->start); wr(&w, g->phase); wr(&w, g->actor);
    wr(&w, g->what); wr(&w, g->ndice); wr(&w, g->taker); wr(&w, g->resume); wr(&w, g->ended);
    for (int i = 0; i < g->ncp; i++) wr(&w, g->display[i]);
    for (int i = 0; i < g->nst; i++) wr(&w, g->tops[i]);
    for (int i = 0; i < g->nst; i++) wr(&w, g->left[i]);
    wr_ids(&w, g->uc, g->nuc);
    wr_ids(&w, g->ub, g->nub);
    wr(&w, g->co_set);
    if (g->co_set) wr_ids(&w, g->co, g->nco);
    wr(&w, g->bo_set);
    if (g->bo_set) {
        wr(&w, g->nst);
        for (int k = 0; k < g->nst; k++) wr_ids(&w, g->bo[k], g->nbo[k]);
    }
    wr_ids(&w, g->dice, g->nd);
    for (int s = 0; s < g->n; s++) {
        const Pl *p = &g->pl[s];
        wr(&w, p->people); wr(&w, p->food); wr(&w, p->agri);
        for (int i = 0; i < 4; i++) wr(&w, p->res[i]);
        wr_ids(&w, p->tools, p->ntools);
        wr_ids(&w, p->used, p->nused);
        wr_ids(&w, p->once, p->nonce);
        wr_ids(&w, p->anyc, p->nany);
        wr_ids(&w, p->cards, p->ncards);
        wr(&w, p->nbld);
        for (int i = 0; i < p->nbld; i++) { wr(&w, p->bld[i][0]); wr(&w, p->bld[i][1]); }
        wr(&w, p->points); wr(&w, p->card_points); wr(&w, p->starved);
        wr_ids(&w, p->placed, g->np);
    }
    *len = w.i;
    return w.full ? SA_OUT_FULL : 0;
}

static int read_rngs(Ctx *c, const uint32_t *rngs, int nrngs) {
    for (int i = 0; i < nrngs; i++) {
        memcpy(c->rng[i].mt, rngs + 625 * i, 624 * sizeof(uint32_t));
        if (rngs[625 * i + 624] > 624) return SA_BAD_ARGS;
        c->rng[i].index = (int)rngs[625 * i + 624];
    }
    return 0;
}

/* --- entry points ------------------------------------------------------------------------------- */
/* Decode a profile and a position and encode the position again (round-trip checks, validation). */
/* The version of the encodings this build reads and writes (fast.py refuses another). */
int32_t sa_core_abi(void) { return SA_CORE_ABI; }

int sa_recode(const int32_t *prof, int32_t nprof, const int32_t *pos, int32_t npos, int32_t *out, int32_t out_cap,
              int32_t *out_len) {
    if (!prof || !pos || !out || !out_len || nprof < 0 || npos < 0 || out_cap < 0) return SA_BAD_ARGS;
    Ctx *c = (Ctx *)malloc(sizeof(Ctx));
    if (!c) return SA_NO_MEMORY;
    int rc = read_profile(&c->prof, prof, nprof);
    if (!rc) rc = read_pos(c, pos, npos);
    if (!rc) rc = write_pos(&c->g, out, out_cap, out_len);
    free(c);
    return rc;
}

/* Play from the position to the end (or max_moves moves): RandomPlayer decisions with the RNG of
 * seat_rng[seat], chance with the RNG chance_rng. rngs holds nrngs states of 625 words (624 + index),
 * read and written back. Returns SA_OVER (0) or SA_MAX_MOVES (1) with the final position in out and
 * the moves made in *nmoves; when keys is not NULL, one key per move there (see pack) and the records
 * of the moves that do not fit a key in log. A negative code on bad input (rngs left as they were).
 * SA_OUT_FULL / SA_LOG_FULL: run again with larger buffers. */
int sa_playout(const int32_t *prof, int32_t nprof, const int32_t *pos, int32_t npos, uint32_t *rngs, int32_t nrngs,
               const int32_t *seat_rng, int32_t chance_rng, int32_t max_moves, int32_t *out, int32_t out_cap,
               int32_t *out_len, int64_t *keys, int32_t keys_cap, int32_t *log, int32_t log_cap, int32_t *log_len,
               int32_t *nmoves) {
    if (!prof || !pos || !rngs || !seat_rng || !out || !out_len || !nmoves || nrngs < 1 || nrngs > 64 ||
        chance_rng < 0 || chance_rng >= nrngs || max_moves < 0 ||
        (keys && (!log || !log_len || log_cap < 0 || keys_cap < 0)))
        return SA_BAD_ARGS;
    Ctx *c = (Ctx *)malloc(sizeof(Ctx));
    if (!c) return SA_NO_MEMORY;
    c->rng = (Rng *)malloc(sizeof(Rng) * (size_t)nrngs);
    if (!c->rng) { free(c); return SA_NO_MEMORY; }
    c->nrng = nrngs;
    c->chance_rng = chance_rng;
    c->keys = keys;
    c->keys_cap = keys ? keys_cap : 0;
    c->nkeys = 0;
    c->log = log;
    c->log_cap = keys ? log_cap : 0;
    c->log_len = 0;
    c->log_full = 0;
    c->err = 0;
    int rc = read_profile(&c->prof, prof, nprof);
    if (!rc) rc = read_pos(c, pos, npos);
    if (!rc) rc = read_rngs(c, rngs, nrngs);
    for (int s = 0; !rc && s < c->g.n; s++) {
        if (seat_rng[s] < 0 || seat_rng[s] >= nrngs) rc = SA_BAD_ARGS;
        else c->seat_rng[s] = seat_rng[s];
    }
    int moves = 0;
    if (!rc) {
        settle(c);
        int a[MAXD + MAXC + 8], na = 0;
        while (!c->err && moves < max_moves && c->g.phase != P_OVER) {
            int ph = c->g.phase;
            int type = (ph == P_REVEAL || ph == P_ROLL || ph == P_DRAW) ? sample_chance(c, a, &na) : choose(c, a, &na);
            if (type < 0) { c->err = type; break; }
            log_move(c, type, a, na);
            step(c, type, a, na);
            if (c->err) break;
            settle(c);
            moves++;
        }
        rc = c->err;
        if (!rc && c->log_full) rc = SA_LOG_FULL;
        if (!rc) rc = write_pos(&c->g, out, out_cap, out_len);
        if (!rc) {
            for (int i = 0; i < nrngs; i++) {
                memcpy(rngs + 625 * i, c->rng[i].mt, 624 * sizeof(uint32_t));
                rngs[625 * i + 624] = (uint32_t)c->rng[i].index;
            }
            *nmoves = moves;
            if (keys) *log_len = c->log_len;
            rc = c->g.phase == P_OVER ? SA_OVER : SA_MAX_MOVES;
        }
    }
    free(c->rng);
    free(c);
    return rc;
}
