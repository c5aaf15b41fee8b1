package io.tunelab.knob;

/**
 * One step of applying knobs on a host: journal, write or read back a file. The agent package sends
 * it as a line of an {@code apply} request (docs/agent.md).
 *
 * @param partner the second file of a {@code SAVEPAIR}, else null
 * @param value for {@code SET} the text written; for {@code CHECK} the value the read-back should
 *     show, or null when no particular value is expected (a scheduler's fresh default, a file that
 *     did not exist at the start); null for saves
 */
public record ApplyLine(Op op, Knob knob, Knob partner, String value) {

  /** What the agent does with the line. */
  public enum Op {
    /** Journal the file's value before the first write, unless journaled already. */
    SAVE,
    /** Journal whichever member of an exclusive pair is active. */
    SAVEPAIR,
    /** Write the value. */
    SET,
    /** Read the value back after all writes (every {@code SET} file is read back too). */
    CHECK
  }

  public ApplyLine {
    if (op == Op.SET && (value == null || value.indexOf('\t') >= 0 || value.indexOf('\n') >= 0)) {
      throw new IllegalArgumentException(knob.name() + ": cannot write '" + value + "'");
    }
    if ((op == Op.SAVEPAIR) != (partner != null)) {
      throw new IllegalArgumentException("a partner belongs to SAVEPAIR lines only");
    }
  }

  static ApplyLine save(Knob k) {
    return new ApplyLine(Op.SAVE, k, null, null);
  }

  static ApplyLine savePair(ExclusivePair p) {
    return new ApplyLine(Op.SAVEPAIR, p.bytes(), p.ratio(), null);
  }

  static ApplyLine set(Knob k, String value) {
    return new ApplyLine(Op.SET, k, null, value);
  }

  static ApplyLine check(Knob k, String expected) {
    return new ApplyLine(Op.CHECK, k, null, expected);
  }

  /** The file the line is about (the first of a pair). */
  public String path() {
    return knob.path();
  }
}
