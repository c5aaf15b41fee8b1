/**
 * Search: which cells to run when the grid is too large for a night, decided round by round from
 * what was measured (racing), and what the candidates say about each factor. Pure: no files, no
 * hosts, no database; the run stores the rounds and asks {@link io.tunelab.search.Rounds} again.
 */
package io.tunelab.search;
