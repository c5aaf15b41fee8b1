package io.tunelab.store;

/**
 * A search candidate's state after a round (table {@code search_rounds}).
 *
 * @param cellOrdinal the candidate's cell
 * @param state {@code live}, {@code eliminated} or {@code winner}
 * @param reason why it was eliminated; null otherwise
 */
public record SearchState(int cellOrdinal, String state, String reason) {
  public static final String LIVE = "live";
  public static final String ELIMINATED = "eliminated";
  public static final String WINNER = "winner";
}
