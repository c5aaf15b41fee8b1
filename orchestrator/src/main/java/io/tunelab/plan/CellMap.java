package io.tunelab.plan;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * An immutable, ordered map of one cell: its keys and where each value comes from are shared by
 * every cell of the same shape, so a cell adds only its array of chosen axis values. This keeps a
 * 100,000-cell plan small.
 */
final class CellMap extends AbstractMap<String, String> {

  /**
   * Keys in order, and for each the axis whose chosen value it holds ({@code axis[i] >= 0}), or
   * else the fixed value {@code fixed[i]} (a setting or a case entry).
   */
  record Shape(String[] keys, int[] axis, String[] fixed) {}

  private final Shape shape;
  private final String[] chosen;

  /** Neither argument may be changed afterwards. */
  CellMap(Shape shape, String[] chosen) {
    this.shape = shape;
    this.chosen = chosen;
  }

  private String valueAt(int i) {
    int a = shape.axis()[i];
    return a >= 0 ? chosen[a] : shape.fixed()[i];
  }

  @Override
  public int size() {
    return shape.keys().length;
  }

  @Override
  public String get(Object key) {
    int i = indexOf(key);
    return i < 0 ? null : valueAt(i);
  }

  @Override
  public boolean containsKey(Object key) {
    return indexOf(key) >= 0;
  }

  private int indexOf(Object key) {
    String[] keys = shape.keys();
    for (int i = 0; i < keys.length; i++) {
      if (keys[i].equals(key)) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public Set<Entry<String, String>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public int size() {
        return shape.keys().length;
      }

      @Override
      public Iterator<Entry<String, String>> iterator() {
        return new Iterator<>() {
          private int next;

          @Override
          public boolean hasNext() {
            return next < shape.keys().length;
          }

          @Override
          public Entry<String, String> next() {
            if (next >= shape.keys().length) {
              throw new NoSuchElementException();
            }
            Entry<String, String> e = new SimpleImmutableEntry<>(shape.keys()[next], valueAt(next));
            next++;
            return e;
          }
        };
      }
    };
  }
}
