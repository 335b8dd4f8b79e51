/*
 * The lease protocol of snowid (docs/design.md §4, "The lease"), as LeaseHolder, NodeBinding,
 * Snowflake and the network registries (Redis's acquire.lua / renew.lua / release.lua, the SQL
 * coordinator's statements) implement it, for SPIN. docs/design.md, "A checked model of the
 * lease", maps each variable and transition to its class and method, and states the bounds.
 *
 * Time is in whole units. rt is real time and also the registry's clock (only the difference of
 * the clocks matters); a holder's wall clock reads rt + off[h], and off[h] steps. A holder is on
 * the wall clock (TimeSource.wallClock()) or, when its bit of MONO is set, on the default source
 * (MonotonicTimeSource), which reads rt + moff[h]: it follows the wall clock forward, never steps
 * back, and while ahead of the wall clock it slews: it may stand still for one real unit, at most
 * once in SLEWW (the code's rate 0.9, here (SLEWW - 1) / SLEWW, above (TTL - MARGIN) / TTL), and
 * such a holder has no real-time fence. When the registry fences it for skew while its source is
 * ahead, it rejoins the wall clock (moff = off; the one time its source goes back); its stories
 * print "(no rdl)" where a wall-clock holder's give its real-time deadline. Holders 0 and 1
 * start holding node ids 0 and 1; holder 2 is a newcomer. Faults are nondeterministic choices
 * within budgets: clock steps, crashes and closes with a restart whose clock may be set back, a
 * registry that loses its whole state, requests and replies dropped, replies late (time passes
 * between any two steps), a pause between a generator's checks and its compare-and-set.
 *
 * Properties:
 *   unique - no (node, time unit) issued by two incarnations (lazy witness below); a generator's
 *            own position keeps its sequence apart, so (node, unit) stands for (node, unit, seq).
 *   fenced - a generator takes no ID after the registry's expiry of the lease it issues under
 *            (guarantee 6, "Fenced"), at its checks: the pause between checks and CAS is the gap
 *            design.md names ("a caller between its check and its CAS"), and costs no uniqueness.
 *
 * Each mechanism can be removed to show that it is needed (model/check.sh --removals):
 *   NO_HWM       the registry does not record sent + ttl - margin before a grant counts
 *   NO_SENT      the deadline is counted from the reply's arrival, not from before the request
 *   NO_FENCE     no real-time deadline (only the ID-time one)
 *   NO_SKEW      no skew check of the registry's clock
 *   NO_WAIT      a grant's generator does not wait past the start (high-water mark, lostUntil)
 *   NO_LOSTWAIT  a registry that lost its state does not record lostUntil
 *   NO_SLEWBOUND the default source, while ahead of the wall clock, may stand still in any unit
 *                (no lower bound on its rate; needs a holder in MONO)
 *
 * -DLIVE adds a liveness property (model/check.sh --liveness; docs/design.md, "Liveness"):
 *   issues - faults happen only before a moment the World chooses, `healed`; from then on the
 *            registry answers every call, no reply is lost, no clock steps (but that healing
 *            brings each clock back within SKEW: NTP corrected it), nobody crashes, and each
 *            holder follows LeaseHolder's policy with no choice left: one call per time unit
 *            (renewEvery and retryEvery are below one unit at TTL 2), re-acquiring at once when
 *            its lease was taken, every reply processed, an ID issued whenever the generator's
 *            checks pass. Real time advances only when no holder has an action due (urgent
 *            actions), so no fairness assumption is needed. Every holder then returns an ID
 *            within K units of healing (an assertion when rt reaches healedAt + K), but one
 *            whose default source is ahead beyond SKEW at healing in a process that has had no
 *            grant yet (`exempt`): only a generator with a binding rejoins the wall clock
 *            (NodeBinding.rejoinWallClock); in the code such a process is a build whose first
 *            acquisition is refused for skew, which fails at once, and the next
 *            build's default source starts on the corrected wall clock, where the model's
 *            process would retry on that source until the slew brings it within SKEW.
 *   NO_RETRY     (with LIVE) a holder whose lease was taken never acquires again: `issues` fails
 *   SHORT_K      (with LIVE) K one unit short of what the wait needs: `issues` fails
 *   NO_REJOIN    (with LIVE) a default source fenced for skew does not rejoin the wall clock: it
 *                stays fenced while it slews, beyond K: `issues` fails
 * Without LIVE none of this is compiled: the safety check's state space is unchanged.
 */

#ifndef NH
#define NH 3               /* holders: 0 .. NN - 1 hold at the start, the last is the newcomer */
#endif
#ifndef NN
#define NN 2               /* node ids of the namespace */
#endif

#ifndef TTL
#define TTL 3              /* lease time (ttl = maxTtl) */
#endif
#define MARGIN 1           /* LeaseHolder.margin: max(ttl / 5, min(50 ms, ttl / 2)), rounded up */
#define SKEW 1             /* skew = maxSkew */
#define SLACK 1            /* LeaseLimits.SLACK */
#define LOSTWAIT (TTL + SKEW + SLACK)
#ifndef TMAX
#define TMAX 6             /* real time runs 0 .. TMAX */
#endif
#ifndef OFFMAX
#define OFFMAX 2           /* |clock offset| a step may set */
#endif
#ifndef MAXSTEPS
#define MAXSTEPS 1         /* clock steps, all holders together */
#endif
#ifndef MAXRESTARTS
#define MAXRESTARTS 1      /* crashes or closes, each followed by a restart */
#endif
#ifndef MAXLOSSES
#define MAXLOSSES 1        /* registry losses of its whole state */
#endif
#ifndef MONO
#define MONO 0             /* a bit per holder on the default time source (0: all on the wall clock) */
#endif
#ifndef SLEWW
#define SLEWW (TTL + 1)    /* a slewing source stands still at most once in SLEWW real units */
#endif
#if !defined(NO_SLEWBOUND) && (SLEWW - 1) * TTL <= (TTL - MARGIN) * SLEWW
#error "the slew rate (SLEWW - 1) / SLEWW must stay above (TTL - MARGIN) / TTL"
#endif
#define NONE (-100)

#ifdef LIVE
/* K: the longest wait from healing to a holder's next ID. A holder issues in the first unit whose
 * clock reading lies past its grant's start, and its clock reads at least rt - SKEW after healing,
 * so K = SKEW + 1 + the latest start a grant made after healing can carry, counted from healing:
 *   - a loss found by the first acquisition after healing: lostUntil = healedAt + LOSTWAIT;
 *   - a mark left by a process whose clock stood OFFMAX ahead (a renewal at healedAt records
 *     sent + TTL - MARGIN), taken over by a holder whose clock reads within SKEW;
 *   - a holder's own position from a clock OFFMAX ahead, set back: OFFMAX, below the previous.
 * Waiting for an expired lease (TTL) ends before that start. With the defaults: 1 + 1 + 4 = 6.
 * -DSHORT_K (K - 1) yields a counterexample: the loss, with a clock SKEW behind. */
#define K_NEEDED (SKEW + 1 + MAX(LOSTWAIT, OFFMAX + TTL - MARGIN))
#ifndef K
#ifdef SHORT_K
#define K (K_NEEDED - 1)   /* one unit short: a counterexample (model/check.sh --liveness) */
#else
#define K K_NEEDED
#endif
#endif
#define UNHEALED && !healed
#else
#define UNHEALED
#endif

#define IDLE 0
#define ACQ_DONE 1
#define REN_DONE 2

short rt;                  /* real time = the registry's clock */

/* the registry */
byte own[NN];              /* 0: free; else holder + 1 (the token) */
short rexp[NN];            /* expiry, registry clock */
short hw[NN];              /* high-water mark, ID time */
short lostUntil = NONE;    /* ID time before which no id is started after a loss */
bool pendLoss;             /* the state is gone; the next acquisition finds it */

/* fault budgets */
byte steps, restarts, losses;

/* the holders: lease (LeaseHolder) */
short off[NH];             /* wall clock = rt + off */
short moff[NH];            /* the default source = rt + moff >= the wall clock (MONO holders) */
byte slewc[NH];            /* real units since its source last stood still, up to SLEWW - 1 */
byte inc[NH];              /* incarnation (a process); a restart makes a new one */
bool lease[NH];            /* has a lease it renews */
byte phase[NH];            /* the call in flight */
short sent[NH], sentRt[NH];     /* the call's clock readings: its own, real time */
byte rnode[NH];            /* reply: node */
short rstart[NH];          /* reply: start (base) */
bool rok[NH];              /* reply: renewed (else taken) */
short bexp[NH];            /* ghost: the registry's latest expiry of the bound lease */
byte releases;             /* unused by the properties: a count of graceful releases */

/* the holders: generator binding (NodeBinding.Binding) and position (Snowflake.state) */
bool bound[NH];
byte node[NH];
short dl[NH];              /* deadline, ID time: issue units < dl */
short rdl[NH];             /* deadline, real time: issue while rt < rdl */
short start[NH];           /* issue units > start */
short pos[NH];             /* latest unit reserved */
bool taking[NH];           /* a caller between its checks and its CAS */
short tu[NH];
byte tn[NH];
bool chg[NH];              /* a new binding was published since the caller's checks */

/* the lazy witness of a duplicate: one issued (node, unit) and its incarnation */
bool watching;
byte wn, wi;
short wu;

#ifdef LIVE
/* ghosts of the liveness property (none of them in the code) */
bool healed;               /* faults are over */
short healedAt;            /* rt at healing */
bool called[NH];           /* after healing: made its call (renewal, acquisition) this unit */
byte issued;               /* after healing: a bit per holder that returned an ID */
byte exempt;               /* a bit per holder owed no ID within K: a default source ahead beyond
                              SKEW at healing in a process with no grant yet (it cannot rejoin) */
byte acts;                 /* after healing: holder steps in this unit (bounded: no stall hides) */
#ifdef NO_RETRY
bool quit[NH];             /* its lease was taken; it never acquires again */
#endif
#endif

#define ISMONO(h) ((MONO >> (h)) & 1)
#define CLK(h) (rt + (ISMONO(h) -> moff[h] : off[h]))
/* NodeBinding.realTime: a real-time deadline only on a source that is not the default one */
#define SET_RDL(h, v) rdl[h] = (ISMONO(h) -> NONE : (v))
#define MAX(a, b) ((a) > (b) -> (a) : (b))
#define MIN(a, b) ((a) < (b) -> (a) : (b))
#define ABS(a) ((a) < 0 -> -(a) : (a))

/* LeaseHolder.skewProblem: null when within skew (plus half the round trip) */
#define SKEW_OK(h, received) \
  (ABS(sentRt[h] - (sent[h] + ((received) - sent[h]) / 2)) <= SKEW + ((received) - sent[h]) / 2)

#ifdef NO_SKEW
#define SKEWCHECK(h, received) true
#else
#define SKEWCHECK(h, received) SKEW_OK(h, received)
#endif

#ifdef NO_SENT
#define FROM(h) CLK(h)
#define FROM_RT(h) rt
#else
#define FROM(h) sent[h]
#define FROM_RT(h) sentRt[h]
#endif

/* the generator's checks (Snowflake.tryNextId / reserve) */
#ifdef NO_WAIT
#define PAST_START(h) true
#else
#define PAST_START(h) (CLK(h) > start[h])
#endif
#ifdef NO_FENCE
#define BEFORE_RDL(h) true
#else
#define BEFORE_RDL(h) (ISMONO(h) || rt < rdl[h])
#endif
#define CAN_ISSUE(h) \
  (!taking[h] && bound[h] && CLK(h) > pos[h] && CLK(h) < dl[h] && PAST_START(h) && BEFORE_RDL(h))

#ifdef LIVE
#ifdef NO_RETRY
#define RETRIES(h) && !quit[h]
#else
#define RETRIES(h)
#endif
/* a call may be made: before healing at any time, after it once per unit */
#define CALL_OK(h) && (!healed || !called[h])
/* a holder's step after healing, counted: LeaseHolder and the generator make at most six per
 * unit (a reply and a CAS pending at healing, a call answered at once, an acquisition after a
 * taken lease, an ID checked and its CAS) */
#define ACT(h) \
  if \
  :: healed -> acts++; assert(acts <= 6 * NH) \
  :: else \
  fi;
/* an action due: time may not pass it */
#define DUE(h) \
  (CAN_ISSUE(h) || taking[h] || phase[h] != IDLE || (!called[h] RETRIES(h)))
#define ANY_DUE (DUE(0) || (NH > 1 && DUE(1)) || (NH > 2 && DUE(2)) || (NH > 3 && DUE(3)))
#define FREE(n) (own[n] == 0 || rexp[n] <= rt)
/* after healing the registry grants the first free id, if any */
#define SKIP_OK(n) && (!healed || !FREE(n))
#else
#define RETRIES(h)
#define CALL_OK(h)
#define ACT(h)
#define SKIP_OK(n)
#endif

/* what a call in flight keeps, cleared when it ends (fewer distinct states) */
#define CLEAR_REPLY(h) \
  sent[h] = 0; sentRt[h] = 0; rnode[h] = 0; rstart[h] = 0

/* a new binding replaces the one a caller checked: its CAS then returns no ID */
inline publish(h) {
  chg[h] = taking[h]
}

#ifdef LIVE
#ifdef NO_RETRY
#define AFTER_TAKEN(h) called[h] = 0; quit[h] = 1;     /* never acquires again */
#else
#define AFTER_TAKEN(h) called[h] = 0;                  /* reacquire() at once */
#endif
#else
#define AFTER_TAKEN(h)
#endif

/* MonotonicTimeSource.rejoin, asked by LeaseHolder when the registry's clock reads behind the
 * request's reading beyond the skew: a source ahead of the wall clock takes its reading, once the
 * generator has a binding, which it fences first (NodeBinding.rejoinWallClock: dl = MIN(dl, CLK)
 * after, as nothing issues below the reading); after a renewal the holder also cuts its grant at
 * a reading from after (the same) and renews at once */
#ifdef NO_REJOIN
#define REJOINS(h) false
#else
#define REJOINS(h) (ISMONO(h) && bound[h] && sentRt[h] < sent[h] && moff[h] > off[h])
#endif
#define REJOIN(h) \
  publish(h); moff[h] = off[h]; dl[h] = MIN(dl[h], CLK(h));                                  \
  printf("rt %d: holder %d's source rejoins the wall clock at %d\n", rt, h, CLK(h))
#ifdef LIVE
#define RENEW_NOW(h) called[h] = 0
#else
#define RENEW_NOW(h) skip
#endif

/* a grant's reply (LeaseHolder.acquire); recv is the holder's local */
#define ACQ_REPLY(h) \
  recv = CLK(h);                                                                              \
  if                                                                                          \
  :: SKEWCHECK(h, recv) ->                                                                    \
     lease[h] = 1; bound[h] = 1; publish(h);                                                  \
     node[h] = rnode[h];                                                                      \
     dl[h] = FROM(h) + TTL - MARGIN;                                                          \
     SET_RDL(h, FROM_RT(h) + TTL - MARGIN);                                                   \
     start[h] = rstart[h];                                                                    \
     bexp[h] = sentRt[h] + TTL;                                                               \
     if                                                                                       \
     :: ISMONO(h) ->                                                                          \
        printf("rt %d: holder %d binds node %d at clock %d: units > %d and < %d (no rdl)\n",  \
               rt, h, node[h], recv, start[h], dl[h])                                         \
     :: else ->                                                                               \
        printf("rt %d: holder %d binds node %d at clock %d: units > %d and < %d, until rt %d\n", \
               rt, h, node[h], recv, start[h], dl[h], rdl[h])                                 \
     fi                                                                                       \
  :: else ->                                                  /* released, refused */         \
     printf("rt %d: holder %d refuses the grant (skew) at clock %d\n", rt, h, recv);          \
     if                                                                                       \
     :: own[rnode[h]] == h + 1 -> own[rnode[h]] = 0; hw[rnode[h]] = rstart[h]                 \
     :: else                                                                                  \
     fi;                                                                                      \
     if                                                                                       \
     :: REJOINS(h) -> REJOIN(h)                                                               \
     :: else                                                                                  \
     fi                                                                                       \
  fi;                                                                                         \
  recv = 0; CLEAR_REPLY(h);                                                                   \
  phase[h] = IDLE

/* a renewal's reply (LeaseHolder.renew) */
#define REN_REPLY(h) \
  recv = CLK(h);                                                                             \
  if                                                                                         \
  :: rok[h] && SKEWCHECK(h, recv) ->                                                         \
     publish(h);                                                                             \
     dl[h] = MAX(dl[h], FROM(h) + TTL - MARGIN);   /* never moved back */                    \
     SET_RDL(h, FROM_RT(h) + TTL - MARGIN);                                                  \
     if                                                                                      \
     :: ISMONO(h) ->                                                                         \
        printf("rt %d: holder %d renewed at clock %d: units < %d (no rdl)\n", rt, h, recv, dl[h]) \
     :: else ->                                                                              \
        printf("rt %d: holder %d renewed at clock %d: units < %d, until rt %d\n",            \
               rt, h, recv, dl[h], rdl[h])                                                   \
     fi                                                                                      \
  :: rok[h] && !SKEWCHECK(h, recv) ->              /* fence; keeps the lease, retries */     \
     publish(h);                                                                             \
     dl[h] = MIN(dl[h], sent[h]); SET_RDL(h, rt);                                            \
     printf("rt %d: holder %d fenced (skew) at clock %d\n", rt, h, recv);                    \
     if                                                                                      \
     :: REJOINS(h) -> REJOIN(h); dl[h] = MIN(dl[h], CLK(h)); RENEW_NOW(h)                    \
     :: else                                                                                 \
     fi                                                                                      \
  :: !rok[h] ->                                    /* LeaseTakenException: fence, acquire */ \
     publish(h);                                                                             \
     dl[h] = MIN(dl[h], sent[h]); SET_RDL(h, rt);                                            \
     lease[h] = 0;                                                                           \
     AFTER_TAKEN(h)                                                                          \
     printf("rt %d: holder %d fenced (lease taken)\n", rt, h)                                \
  fi;                                                                                        \
  recv = 0; rok[h] = 0; CLEAR_REPLY(h);                                                      \
  phase[h] = IDLE

proctype Holder(byte h) {
  short recv;
  byte n;
end:
  do
  /* --- the generator: checks (Snowflake.tryNextId / reserve), then CAS --- */
  :: atomic {
       CAN_ISSUE(h) ->
       ACT(h)
       assert(rt < bexp[h]);          /* fenced */
       tu[h] = CLK(h); tn[h] = node[h];
       printf("rt %d: holder %d (process %d) takes unit %d on node %d\n", rt, h, inc[h], tu[h], tn[h]);
#ifdef GAP
       taking[h] = 1                  /* paused between the checks and the CAS */
     }
  :: atomic {
       taking[h] ->
       ACT(h)
#endif
       pos[h] = MAX(pos[h], tu[h]);  /* the CAS reserved the unit */
       if
       :: !chg[h] ->                   /* node.current == b: the ID is returned */
#ifdef LIVE
          if
          :: healed -> issued = issued | (1 << h)
          :: else
          fi;
#endif
          if
          :: watching && wn == tn[h] && wu == tu[h] ->
          printf("rt %d: holder %d (process %d) issues (node %d, unit %d), issued by process %d\n",
                 rt, h, inc[h], tn[h], tu[h], wi);
          assert(wi == inc[h])                                       /* unique */
          :: else ->
             if
             :: !watching -> watching = 1; wn = tn[h]; wu = tu[h]; wi = inc[h]
             :: true
             fi
          fi
       :: else
       fi;
       taking[h] = 0; chg[h] = 0; tu[h] = 0; tn[h] = 0
     }

  /* --- acquisition (LeaseHolder.acquire; the registry's acquire) ---
   * The request is answered as it is sent: a request that waits before the registry answers it is
   * one sent later with an earlier clock reading, which only lowers the deadline and the mark it
   * asks for; a request dropped is a call not made (the model never has to renew). */
  :: atomic {
       !lease[h] && phase[h] == IDLE CALL_OK(h) RETRIES(h) ->
       ACT(h)
#ifdef LIVE
       called[h] = healed;
#endif
       sent[h] = CLK(h); sentRt[h] = rt;
#ifndef NO_LOSTWAIT
       if
       :: pendLoss -> lostUntil = MAX(lostUntil, rt + LOSTWAIT);  /* no state: a loss */
          printf("rt %d: the registry finds no state: lostUntil %d\n", rt, lostUntil)
       :: else
       fi;
#endif
       pendLoss = 0;
       n = 0;
       do
       :: n < NN && (own[n] == 0 || rexp[n] <= rt) -> break      /* a free id */
       :: n < NN SKIP_OK(n) -> n++
       :: n >= NN -> break
       od;
       if
       :: n < NN ->
          rstart[h] = MAX(hw[n], lostUntil);
          own[n] = h + 1; rexp[n] = rt + TTL;
#ifndef NO_HWM
          hw[n] = MAX(rstart[h], sent[h] + TTL - MARGIN);
#else
          hw[n] = rstart[h];
#endif
          rnode[h] = n;
          printf("rt %d: holder %d asks at clock %d: granted node %d, start %d, expiry %d, mark %d\n",
                 rt, h, sent[h], n, rstart[h], rexp[n], hw[n]);
          phase[h] = ACQ_DONE
       :: else -> CLEAR_REPLY(h)                                  /* all held */
#ifdef LIVE
          ; printf("rt %d: holder %d asks: every id is held\n", rt, h)
#endif
       fi;
       n = 0;
#ifdef LIVE
       if
       :: healed && phase[h] == ACQ_DONE -> ACQ_REPLY(h)  /* after healing: answered at once */
       :: else
       fi;
#endif
     }
  :: atomic {                                                    /* reply dropped */
       phase[h] == ACQ_DONE UNHEALED -> phase[h] = IDLE; CLEAR_REPLY(h);
       printf("rt %d: holder %d: the grant's reply is lost\n", rt, h)
     }
  :: atomic {
       phase[h] == ACQ_DONE ->
       ACT(h)
       ACQ_REPLY(h)
     }

  /* --- renewal (LeaseHolder.renew; the registry's renew), answered as sent (see above) --- */
  :: atomic {
       lease[h] && phase[h] == IDLE CALL_OK(h) ->
       ACT(h)
#ifdef LIVE
       called[h] = healed;
#endif
       sent[h] = CLK(h); sentRt[h] = rt;
       rok[h] = (own[node[h]] == h + 1);      /* the token; an expired lease nobody took renews */
       if
       :: rok[h] ->
          rexp[node[h]] = rt + TTL;
#ifndef NO_HWM
          hw[node[h]] = MAX(hw[node[h]], MAX(sent[h] + TTL - MARGIN, pos[h]));
#endif
          bexp[h] = rexp[node[h]];
          printf("rt %d: holder %d renews node %d at clock %d: expiry %d, mark %d\n",
                 rt, h, node[h], sent[h], rexp[node[h]], hw[node[h]])
       :: else ->
          printf("rt %d: holder %d renews at clock %d: not its lease\n", rt, h, sent[h])
       fi;
       phase[h] = REN_DONE;
#ifdef LIVE
       if
       :: healed -> REN_REPLY(h)                          /* after healing: answered at once */
       :: else
       fi;
#endif
     }
  :: atomic {                                                    /* reply dropped */
       phase[h] == REN_DONE UNHEALED -> phase[h] = IDLE; rok[h] = 0; CLEAR_REPLY(h);
       printf("rt %d: holder %d: the renewal's reply is lost\n", rt, h)
     }
  :: atomic {
       phase[h] == REN_DONE ->
       ACT(h)
       REN_REPLY(h)
     }

  /* --- faults of the holder --- */
  :: atomic {                                           /* the wall clock steps, either way */
       steps < MAXSTEPS UNHEALED -> steps++;
       select(n : 0 .. 2 * OFFMAX);
       off[h] = n - OFFMAX;
       n = 0;
       if
       :: ISMONO(h) && off[h] > moff[h] -> moff[h] = off[h]   /* followed forward, never back */
       :: else
       fi;
       printf("rt %d: holder %d's clock steps to rt %d\n", rt, h, off[h])
     }
  :: atomic {                                           /* crash, or close and release; restart */
       restarts < MAXRESTARTS && !taking[h] UNHEALED -> restarts++;
       if
       :: true ->                                       /* SIGKILL: nothing released */
          printf("rt %d: holder %d is killed\n", rt, h)
       :: lease[h] && own[node[h]] == h + 1 ->          /* close: fence, then release */
          own[node[h]] = 0;
          hw[node[h]] = MAX(pos[h], start[h]);          /* release.lua: max(issued, base) */
          releases++;
          printf("rt %d: holder %d closes: releases node %d, mark %d\n", rt, h, node[h], hw[node[h]])
       fi;
       /* the restarted process's clock may be set back */
       n = 0;
       select(n : 0 .. OFFMAX);
       off[h] = MAX(off[h] - n, -OFFMAX);
       n = 0;
       if
       :: ISMONO(h) -> moff[h] = off[h]; slewc[h] = SLEWW - 1   /* a new source, on the wall clock */
       :: else
       fi;
       inc[h] = inc[h] + NH;
       printf("rt %d: holder %d restarts as process %d, clock at rt %d\n", rt, h, inc[h], off[h]);
       lease[h] = 0; bound[h] = 0; phase[h] = IDLE; pos[h] = NONE; start[h] = NONE;
       dl[h] = NONE; rdl[h] = NONE; node[h] = 0; bexp[h] = NONE; chg[h] = 0;
#ifdef NO_RETRY
       quit[h] = 0;
#endif
       CLEAR_REPLY(h); rok[h] = 0
     }
  od
}

#ifdef NO_SLEWBOUND
#define SLEW_MAY(n) true
#else
#define SLEW_MAY(n) (slewc[n] == SLEWW - 1)
#endif

/* A real unit has passed: a default source ahead of its wall clock may stand still through it
 * (MonotonicTimeSource's slew: Slew.nanosAt), at most once in SLEWW units. */
inline slew(n) {
  for (n : 0 .. NH - 1) {
    if
    :: ISMONO(n) ->
       if
       :: moff[n] > off[n] && SLEW_MAY(n) -> moff[n]--; slewc[n] = 0;
          printf("rt %d: holder %d's source stands still at %d (slews)\n", rt, n, rt + moff[n])
       :: true -> slewc[n] = MIN(slewc[n] + 1, SLEWW - 1)
       fi
    :: else
    fi
  }
  n = 0
}

/* Real time passes; the registry may lose its whole state (a restart without persistence). */
proctype World() {
  byte n;
#ifdef LIVE
  byte m;
#endif
end:
  do
  :: atomic { rt < TMAX -> rt++; slew(n) }
  :: atomic {
       losses < MAXLOSSES -> losses++;
       for (n : 0 .. NN - 1) {
         own[n] = 0; rexp[n] = 0; hw[n] = NONE
       }
       n = 0;
       lostUntil = NONE; pendLoss = 1;
       printf("rt %d: the registry loses its state\n", rt)
     }
#ifdef LIVE
  :: atomic {                        /* the faults end; NTP brings every clock within SKEW */
       healed = 1; healedAt = rt;
       steps = 0; restarts = 0; losses = 0; releases = 0;   /* spent: one state after healing */
       for (n : 0 .. NH - 1) {
         if
         :: ABS(off[n]) > SKEW ->
            select(m : 0 .. 2 * SKEW);
            off[n] = m - SKEW;
            m = 0
         :: else
         fi;
         if
         :: ISMONO(n) -> moff[n] = MAX(moff[n], off[n]);  /* a source ahead stays ahead */
            if
            :: !bound[n] && moff[n] > SKEW -> exempt = exempt | (1 << n)
            :: else
            fi
         :: else
         fi
       }
       n = 0;
       printf("rt %d: healed; holder 0's clock at rt %d, holder %d's at rt %d\n", rt, off[0], NH - 1,
              off[NH - 1]);
       break
     }
#endif
  od;
#ifdef LIVE
  /* after healing: time passes only when no holder has an action due; no end label here, so a
   * holder's due action that cannot run is reported as an invalid end state */
  do
  :: atomic {
       !ANY_DUE && rt < healedAt + K -> rt++; acts = 0; slew(n);
       for (n : 0 .. NH - 1) {
         called[n] = 0
       }
       n = 0
     }
  :: atomic {
       !ANY_DUE && rt == healedAt + K ->
       printf("rt %d: %d units after healing, holders that issued: %d of mask %d (exempt %d)\n",
              rt, K, issued, (1 << NH) - 1, exempt);
       assert((issued | exempt) == (1 << NH) - 1);                    /* issues */
       break
     }
  od
#endif
}

init {
  byte h;
  atomic {
    for (h : 0 .. NH - 1) {
      inc[h] = h + 1; pos[h] = NONE; start[h] = NONE; dl[h] = NONE; rdl[h] = NONE;
      bexp[h] = NONE;
      if
      :: ISMONO(h) -> slewc[h] = SLEWW - 1
      :: else
      fi
    }
    /* holders 0 and 1 acquired ids 0 and 1 at time 0 */
    for (h : 0 .. NN - 1) {
      own[h] = h + 1; rexp[h] = TTL;
#ifndef NO_HWM
      hw[h] = TTL - MARGIN;
#else
      hw[h] = NONE;
#endif
     
      lease[h] = 1; bound[h] = 1; node[h] = h; dl[h] = TTL - MARGIN; SET_RDL(h, TTL - MARGIN);
      bexp[h] = TTL;
      if
      :: ISMONO(h) ->
         printf("rt 0: holder %d holds node %d: units < %d (no rdl), registry's expiry %d\n", h, h,
                dl[h], TTL)
      :: else ->
         printf("rt 0: holder %d holds node %d: units < %d, until rt %d, registry's expiry %d\n",
                h, h, dl[h], rdl[h], TTL)
      fi
    }
    h = 0;
    run World();
    for (h : 0 .. NH - 1) {
      run Holder(h)
    }
  }
}
