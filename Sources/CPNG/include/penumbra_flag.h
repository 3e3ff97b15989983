// A flag that Swift sets and C loops read: RenderCancellation's token as C
// code sees it (the PNG encoder's bands look at it). A plain int accessed only
// through these atomic builtins, so either side may touch it from any thread.
#ifndef PENUMBRA_FLAG_H
#define PENUMBRA_FLAG_H

static inline void penumbra_flag_set(int *flag) { __atomic_store_n(flag, 1, __ATOMIC_RELAXED); }
static inline int penumbra_flag_is_set(const int *flag) { return flag != 0 && __atomic_load_n(flag, __ATOMIC_RELAXED) != 0; }

#endif
