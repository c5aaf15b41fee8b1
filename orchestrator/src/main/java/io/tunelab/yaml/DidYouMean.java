package io.tunelab.yaml;

/**
 * Suggests the closest known word for a misspelt one (Levenshtein distance at most 2, case ignored
 * in what was written): shared by the matrix and inventory readers.
 */
public final class DidYouMean {
  private static final int MAX_DISTANCE = 2;

  private DidYouMean() {}

  /**
   * Returns {@code "; did you mean 'x'?"} for the closest choice, or {@code ""} if none is close.
   */
  public static String hint(String got, Iterable<String> choices) {
    String best = closest(got, choices);
    return best == null ? "" : "; did you mean '" + best + "'?";
  }

  /** The closest choice within the distance limit (the first one written on a tie), or null. */
  public static String closest(String got, Iterable<String> choices) {
    String best = null;
    int bestDistance = MAX_DISTANCE + 1;
    for (String choice : choices) {
      if (choice.equals(got)) {
        continue;
      }
      int d = distance(got.toLowerCase(java.util.Locale.ROOT), choice);
      if (d < bestDistance) {
        best = choice;
        bestDistance = d;
      }
    }
    return best;
  }

  static int distance(String a, String b) {
    if (Math.abs(a.length() - b.length()) > MAX_DISTANCE) {
      return MAX_DISTANCE + 1;
    }
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
