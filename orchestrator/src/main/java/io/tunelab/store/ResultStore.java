package io.tunelab.store;

/** A store opened for writing: what a run writes, and what readers read of it. */
public interface ResultStore extends RunStore, ResultReader {
  @Override
  void close();
}
