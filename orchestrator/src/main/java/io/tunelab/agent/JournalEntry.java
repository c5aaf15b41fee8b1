package io.tunelab.agent;

import java.util.List;

/** One line of the agent's journal: a file and the original value a restore writes back. */
public record JournalEntry(String path, String original) {
  static List<JournalEntry> from(Answer answer) {
    return answer.lines().stream()
        .map(line -> Answer.fields(line, 2))
        .map(f -> new JournalEntry(f[0], f[1]))
        .toList();
  }
}
