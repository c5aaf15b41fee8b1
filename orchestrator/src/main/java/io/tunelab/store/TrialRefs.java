package io.tunelab.store;

import io.tunelab.store.ResultStore.TrialRef;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.RandomAccess;

/**
 * Trials to run as a list backed by arrays (about 30 bytes a trial), each {@link TrialRef} made
 * when asked for: a plan of 300,000 trials is read into a few arrays, not 300,000 objects.
 */
final class TrialRefs extends AbstractList<TrialRef> implements RandomAccess {
  private long[] ids = new long[64];
  private long[] cellIds = new long[64];
  private int[] ordinals = new int[64];
  private int[] reps = new int[64];
  private int[] seqs = new int[64];
  private boolean[] warmups = new boolean[64];
  private int size;

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
