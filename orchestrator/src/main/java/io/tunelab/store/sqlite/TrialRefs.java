package io.tunelab.store.sqlite;

import io.tunelab.store.TrialRef;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.RandomAccess;

/**
 * Trials to run as a list backed by arrays (about 30 bytes a trial), each {@link TrialRef} made
 * when asked for: a plan of 300,000 trials is read into a few arrays, not 300,000 objects.
 */
final class TrialRefs extends AbstractList<TrialRef> implements RandomAccess {
  private long[] ids;
  private long[] cellIds;
  private int[] ordinals;
  private int[] reps;
  private int[] seqs;
  private boolean[] warmups;
  private int size;

  TrialRefs() {
    this(64);
  }

  /** A list with room for {@code capacity} trials before it grows. */
  TrialRefs(int capacity) {
    int n = Math.max(capacity, 1);
    ids = new long[n];
    cellIds = new long[n];
    ordinals = new int[n];
    reps = new int[n];
    seqs = new int[n];
    warmups = new boolean[n];
  }

  /** Appends one trial. */
  void add(long id, long cellId, int ordinal, int rep, int seq, boolean warmup) {
    if (size == ids.length) {
      int n = size * 2;
      ids = Arrays.copyOf(ids, n);
      cellIds = Arrays.copyOf(cellIds, n);
      ordinals = Arrays.copyOf(ordinals, n);
      reps = Arrays.copyOf(reps, n);
      seqs = Arrays.copyOf(seqs, n);
      warmups = Arrays.copyOf(warmups, n);
    }
    ids[size] = id;
    cellIds[size] = cellId;
    ordinals[size] = ordinal;
    reps[size] = rep;
    seqs[size] = seq;
    warmups[size] = warmup;
    size++;
  }

  @Override
  public TrialRef get(int index) {
    if (index < 0 || index >= size) {
      throw new IndexOutOfBoundsException(index);
    }
    return new TrialRef(
        ids[index], cellIds[index], ordinals[index], reps[index], seqs[index], warmups[index]);
  }

  @Override
  public int size() {
    return size;
  }
}
