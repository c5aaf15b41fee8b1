package io.tunelab.store;

/**
 * The rows a user's statement returned within its {@link QueryLimits}.
 *
 * @param table the columns and the rows read
 * @param cut whether the statement had more rows than {@link QueryLimits#maxRows}, left unread
 */
public record QueryAnswer(ResultTable table, boolean cut) {}
