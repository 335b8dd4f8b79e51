package io.snowid.torture;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * How one worker slot writes the fleet's ID space and where its node values come from. Every form
 * is one ID space (the same epoch, unit, and time, clockback, node and sequence bits: the clockback
 * field stands at the same place in each), so a slot of any form contends with every other for the
 * same node values, and the checker decodes every ID with {@link Options#LAYOUT}.
 *
 * @param form the layout and lease settings
 * @param datacenter the fixed datacenter value of {@link Form#FIXED_DATACENTER}, else -1
 * @param oneHost whether the coordinator is {@code file:}, which without {@code fields=} would take
 *     the datacenter from the host's IPv4 address instead of leasing it
 * @param ttlMillis the lease time the slot's workers ask for: the run's, or (mixed) a shorter one
 *     within the same {@code maxTtl}, so that after a registry loss a newcomer with the short one
 *     must wait out a holder with the long one
 * @param clockOffsetMillis where the slot's wall clock stands from the real one when no clock fault
 *     moves it (libfaketime): within {@link #OFFSET_MILLIS}, inside the fleet's {@code maxSkew} of
 *     1 s, so that a holder ahead and a newcomer behind are both allowed
 */
record NodeSetup(
    Form form, int datacenter, boolean oneHost, long ttlMillis, long clockOffsetMillis) {
  /** The largest standing clock offset of a slot, either way: 0.8 of the fleet's maxSkew. */
  static final long OFFSET_MILLIS = 800;

  /** The fleet's ID space written with two node fields: the high two of the seven bits. */
  static final String TWO_FIELDS =
      "time=41,clockback=3,datacenter=2,worker=5,sequence=12,epoch=2010-11-04T01:42:54.657Z,unit=1ms";

  /**
   * The most slots of a fleet with {@link Form#FIXED_DATACENTER}: a slot holds at most two node
   * values at once (a killed worker's lease until it expires, and its replacement's; faults on one
   * slot are a lease time apart), so 16 slots hold at most 32 values, the worker ids of one
   * datacenter value: whatever value a slot fixes and however the coordinator picks, it finds one
   * free. A larger fleet leaves the form out.
   */
  static final int FIXED_MAX_SLOTS = 16;

  /** The forms; {@code --no-mixed} runs {@link #WORKER} in every slot. */
  enum Form {
    /** {@link Options#LAYOUT}: one node field, leased. */
    WORKER("worker=7, leased"),
    /** {@link #TWO_FIELDS}, both leased. */
    DATACENTER_WORKER("datacenter=2,worker=5, both leased"),
    /** {@link #TWO_FIELDS}, the datacenter from {@code SNOWID_DATACENTER_ID}, the worker leased. */
    FIXED_DATACENTER("datacenter=2,worker=5, SNOWID_DATACENTER_ID=%d, worker leased"),
    /** {@link #TWO_FIELDS}, both leased, listed the other way round. */
    WORKER_DATACENTER("datacenter=2,worker=5, both leased");

    final String description;

    Form(String description) {
      this.description = description;
    }
  }

  /** The layout spec the worker builds its generator with. */
  String layout() {
    return form == Form.WORKER ? Options.LAYOUT : TWO_FIELDS;
  }

  /** Lease options appended to the worker's node source URI (each starting with {@code &}). */
  String uriOptions() {
    return "&ttl="
        + ttlMillis
        + "ms"
        + switch (form) {
          case WORKER, FIXED_DATACENTER -> "";
          case DATACENTER_WORKER -> oneHost ? "&fields=datacenter,worker" : "";
          case WORKER_DATACENTER -> "&fields=worker,datacenter";
        };
  }

  /** The worker's {@code SNOWID_*} environment variables (every other one is removed). */
  Map<String, String> environment() {
    return form == Form.FIXED_DATACENTER
        ? Map.of("SNOWID_DATACENTER_ID", Integer.toString(datacenter))
        : Map.of();
  }

  /** For the run's output and report. */
  String describe() {
    return String.format(form.description, datacenter)
        + " ("
        + uriOptions().substring(1)
        + (clockOffsetMillis == 0 ? "" : ", clock " + (clockOffsetMillis > 0 ? "+" : ""))
        + (clockOffsetMillis == 0 ? "" : clockOffsetMillis + " ms")
        + ")";
  }

  /**
   * The setup of every slot, drawn from the seed (on a stream of its own, so a seed's faults are
   * those of an unmixed run): the forms in equal shares (every form once in a fleet of 4 or more),
   * shuffled over the slots so that they do not follow the time modes (which go by slot number). A
   * fixed datacenter is 0 half the time (where the others take their lowest ids, so that they
   * contend), else 1 to 3. Each slot's lease time is the run's or, for every other slot in a
   * shuffled order, {@link #shortTtl}; its clock offset is drawn within {@link #OFFSET_MILLIS}.
   *
   * @param ttlMillis the run's lease time, the fleet's {@code maxTtl}
   */
  static List<NodeSetup> plan(
      long seed, int slots, boolean mixed, boolean oneHost, long ttlMillis) {
    List<NodeSetup> out = new ArrayList<>();
    if (!mixed) {
      for (int i = 0; i < slots; i++) {
        out.add(new NodeSetup(Form.WORKER, -1, oneHost, ttlMillis, 0));
      }
      return out;
    }
    SplittableRandom terms = new SplittableRandom(~seed);
    boolean[] shortTtl = new boolean[slots];
    for (int i = 0; i < slots; i++) {
      shortTtl[i] = i % 2 == 1;
    }
    for (int i = slots - 1; i > 0; i--) {
      int j = terms.nextInt(i + 1);
      boolean t = shortTtl[i];
      shortTtl[i] = shortTtl[j];
      shortTtl[j] = t;
    }
    List<Form> forms = new ArrayList<>(List.of(Form.values()));
    if (slots > FIXED_MAX_SLOTS) {
      forms.remove(Form.FIXED_DATACENTER);
    }
    SplittableRandom r = new SplittableRandom(seed).split();
    Form[] drawn = new Form[slots];
    for (int i = 0; i < slots; i++) {
      drawn[i] = forms.get(i % forms.size());
    }
    for (int i = slots - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      Form t = drawn[i];
      drawn[i] = drawn[j];
      drawn[j] = t;
    }
    for (int i = 0; i < slots; i++) {
      Form f = drawn[i];
      int dc = f != Form.FIXED_DATACENTER ? -1 : r.nextBoolean() ? 0 : 1 + r.nextInt(3);
      long offset = terms.nextLong(-OFFSET_MILLIS, OFFSET_MILLIS + 1);
      out.add(new NodeSetup(f, dc, oneHost, shortTtl[i] ? shortTtl(ttlMillis) : ttlMillis, offset));
    }
    return out;
  }

  /** Two fifths of the run's lease time, at least 800 ms (and never more than the run's). */
  static long shortTtl(long ttlMillis) {
    return Math.min(ttlMillis, Math.max(800, ttlMillis * 2 / 5));
  }
}
