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
 */
record NodeSetup(Form form, int datacenter, boolean oneHost) {
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
    return switch (form) {
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
    String options = uriOptions();
    return String.format(form.description, datacenter)
        + (options.isEmpty() ? "" : " (" + options.substring(1) + ")");
  }

  /**
   * The setup of every slot, drawn from the seed (on a stream of its own, so a seed's faults are
   * those of an unmixed run): the forms in equal shares (every form once in a fleet of 4 or more),
   * shuffled over the slots so that they do not follow the time modes (which go by slot number). A
   * fixed datacenter is 0 half the time (where the others take their lowest ids, so that they
   * contend), else 1 to 3.
   */
  static List<NodeSetup> plan(long seed, int slots, boolean mixed, boolean oneHost) {
    List<NodeSetup> out = new ArrayList<>();
    if (!mixed) {
      for (int i = 0; i < slots; i++) {
        out.add(new NodeSetup(Form.WORKER, -1, oneHost));
      }
      return out;
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
    for (Form f : drawn) {
      int dc = f != Form.FIXED_DATACENTER ? -1 : r.nextBoolean() ? 0 : 1 + r.nextInt(3);
      out.add(new NodeSetup(f, dc, oneHost));
    }
    return out;
  }
}
