package io.tunelab.inventory;

/** A setting whose value is one of a few words. */
interface Keyword {
  /** The word written in the inventory. */
  String word();
}
