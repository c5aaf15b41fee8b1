package io.tunelab.knob;

import java.util.Collection;
import java.util.Optional;

/** Guesses which known word a misspelt one was meant to be, for "did you mean" hints. */
final class Spelling {
  private Spelling() {}

  /**
   * The known word closest to {@code word}, if it is close enough to be a plausible typo: a few
   * edits away (transpositions count as one), a prefix of it, or an abbreviation of it with the
   * same first letter ({@code blk} for {@code block}).
   */
  static Optional<String> closest(String word, Collection<String> known) {
    String w = word.toLowerCase(java.util.Locale.ROOT);
    int limit = w.length() <= 3 ? 1 : w.length() <= 6 ? 2 : 3;
    String best = null;
    int bestScore = Integer.MAX_VALUE;
    for (String candidate : known) {
      String c = candidate.toLowerCase(java.util.Locale.ROOT);
      if (c.equals(w)) {
        continue;
      }
      int d = distance(w, c);
      boolean plausible =
          d <= limit
              || (w.length() >= 3 && (c.startsWith(w) || w.startsWith(c)))
              || (w.length() >= 3 && w.charAt(0) == c.charAt(0) && isSubsequence(w, c));
      if (plausible && d < bestScore) {
        best = candidate;
        bestScore = d;
      }
    }
    return Optional.ofNullable(best);
  }

  /**
   * The known word {@code word} is a plain typo of: one or two edits away (a transposition is one),
   * never a prefix or an abbreviation, so that a new name sharing a stem is not taken for a
   * misspelling.
   */
  static Optional<String> typoOf(String word, Collection<String> known) {
    String best = null;
    int bestScore = word.length() <= 4 ? 2 : 3;
    for (String candidate : known) {
      int d = distance(word, candidate);
      if (d > 0 && d < bestScore) {
        best = candidate;
        bestScore = d;
      }
    }
    return Optional.ofNullable(best);
  }

  /** Formats the hint as it ends a message: {@code " (did you mean 'block'?)"} or nothing. */
  static String hint(String word, Collection<String> known) {
    return closest(word, known).map(s -> " (did you mean '" + s + "'?)").orElse("");
  }

  /** Optimal string alignment distance: Levenshtein plus adjacent transpositions. */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        int v = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          v = Math.min(v, d[i - 2][j - 2] + 1);
        }
        d[i][j] = v;
      }
    }
    return d[a.length()][b.length()];
  }

  private static boolean isSubsequence(String small, String big) {
    int i = 0;
    for (int j = 0; j < big.length() && i < small.length(); j++) {
      if (small.charAt(i) == big.charAt(j)) {
        i++;
      }
    }
    return i == small.length();
  }
}
