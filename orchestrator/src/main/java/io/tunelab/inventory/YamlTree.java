package io.tunelab.inventory;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import io.tunelab.matrix.Position;
import io.tunelab.matrix.Problem;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * YAML text as a tree of nodes that remember their line and column, read with Jackson's streaming
 * parser (a databind tree would lose the positions).
 */
final class YamlTree {

  /** A node and where it was written. */
  sealed interface Node permits Scalar, Sequence, Mapping {
    Position position();

    /** What to call this kind of node in a message. */
    String kind();
  }

  /** A single value, its text as written; {@code isNull} for nothing, {@code ~} or null. */
  record Scalar(String text, boolean isNull, Position position) implements Node {
    @Override
    public String kind() {
      return isNull ? "nothing" : "a single value";
    }
  }

  /** A list (the inventory has no lists; only its kind matters for messages). */
  record Sequence(Position position) implements Node {
    @Override
    public String kind() {
      return "a list";
    }
  }

  /** A map; {@code entries} in the order written, duplicates already reported. */
  record Mapping(List<Entry> entries, Position position) implements Node {
    @Override
    public String kind() {
      return "a map";
    }
  }

  /** One key of a map and its value. */
  record Entry(String key, Position keyPosition, Node value) {}

  private final String file;
  private final List<Problem> problems;

  YamlTree(String file, List<Problem> problems) {
    this.file = file;
    this.problems = problems;
  }

  /**
   * Parses one document. Malformed YAML throws at once; duplicate keys, aliases and extra documents
   * are added to {@code problems}.
   *
   * @return the root node, or null when the text holds no document
   */
  Node read(String text) {
    try (JsonParser parser = new YAMLFactory().createParser(text)) {
      if (parser.nextToken() == null) {
        return null;
      }
      Node root = node(parser, "");
      if (parser.nextToken() != null) {
        problems.add(new Problem(here(parser), "(yaml)", "only one YAML document is allowed here"));
      }
      return root;
    } catch (JsonProcessingException e) {
      throw new InventoryException(List.of(syntaxProblem(e)));
    } catch (IOException e) {
      // Reading from a String does no I/O; this would be a bug in the parser.
      throw new IllegalStateException(e);
    }
  }

  private Node node(JsonParser parser, String path) throws IOException {
    Position at = here(parser);
    JsonToken token = parser.currentToken();
    if (token == JsonToken.START_OBJECT) {
      return mapping(parser, path, at);
    }
    if (token == JsonToken.START_ARRAY) {
      parser.skipChildren();
      return new Sequence(at);
    }
    if (((YAMLParser) parser).isCurrentAlias()) {
      problems.add(
          new Problem(
              at,
              path.isEmpty() ? "(yaml)" : path,
              "YAML aliases (*" + parser.getText() + ") are not supported"));
    }
    return new Scalar(parser.getText(), token == JsonToken.VALUE_NULL, at);
  }

  private Node mapping(JsonParser parser, String path, Position at) throws IOException {
    List<Entry> entries = new ArrayList<>();
    Map<String, Entry> byKey = new HashMap<>();
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String key = parser.currentName();
      Position keyAt = here(parser);
      parser.nextToken();
      String childPath = path.isEmpty() ? key : path + "." + key;
      Entry entry = new Entry(key, keyAt, node(parser, childPath));
      Entry earlier = byKey.putIfAbsent(key, entry);
      if (earlier == null) {
        entries.add(entry);
      } else {
        problems.add(
            new Problem(
                keyAt,
                childPath,
                "duplicate key (first written at line " + earlier.keyPosition().line() + ")"));
      }
    }
    return new Mapping(List.copyOf(entries), at);
  }

  private Position here(JsonParser parser) {
    JsonLocation l = parser.currentTokenLocation();
    return new Position(file, l.getLineNr(), l.getColumnNr());
  }

  private Problem syntaxProblem(JsonProcessingException e) {
    if (e.getCause() instanceof MarkedYAMLException m && m.getProblemMark() != null) {
      Mark mark = m.getProblemMark();
      String message = m.getProblem();
      if (m.getContext() != null && m.getContextMark() != null) {
        Mark c = m.getContextMark();
        message +=
            " (" + m.getContext() + " at " + (c.getLine() + 1) + ":" + (c.getColumn() + 1) + ")";
      }
      return new Problem(
          new Position(file, mark.getLine() + 1, mark.getColumn() + 1), "(yaml)", oneLine(message));
    }
    JsonLocation l = e.getLocation();
    return new Problem(
        new Position(file, l == null ? 1 : l.getLineNr(), l == null ? 1 : l.getColumnNr()),
        "(yaml)",
        oneLine(e.getOriginalMessage()));
  }

  private static String oneLine(String message) {
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
