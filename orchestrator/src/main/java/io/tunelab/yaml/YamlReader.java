package io.tunelab.yaml;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Reads YAML text into {@link YamlNode}s with Jackson's streaming parser, which keeps the line and
 * column of every token (a databind tree would lose them).
 */
public final class YamlReader {
  private final String file;
  private final String inDocument;
  private final Problems problems;

  /**
   * @param file the name used in positions
   * @param inDocument ends the message about a second document, e.g. {@code "in a matrix"}
   */
  public YamlReader(String file, String inDocument, Problems problems) {
    this.file = file;
    this.inDocument = inDocument;
    this.problems = problems;
  }

  /**
   * Parses one YAML document. Malformed YAML throws the document's exception at once, with the
   * parser's position; duplicate keys, aliases and further documents are added to {@code problems}
   * and reading goes on.
   *
   * @return the root node, or null for a file without any document
   */
  public YamlNode read(String text) {
    try (JsonParser parser = new YAMLFactory().createParser(text)) {
      JsonToken first = parser.nextToken();
      if (first == null) {
        return null;
      }
      YamlNode root = node(parser, "");
      if (parser.nextToken() != null) {
        problems.add(here(parser), "(yaml)", "only one YAML document is allowed " + inDocument);
      }
      return root;
    } catch (JsonProcessingException e) {
      throw problems.failure(syntaxProblem(e, text));
    } catch (IOException e) {
      // Reading from a String does no I/O; this would be a bug in the parser.
      throw new IllegalStateException(e);
    }
  }

  private YamlNode node(JsonParser parser, String path) throws IOException {
    Position at = here(parser);
    JsonToken token = parser.currentToken();
    switch (token) {
      case START_OBJECT:
        return mapping(parser, path, at);
      case START_ARRAY:
        List<YamlNode> items = new ArrayList<>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
          items.add(node(parser, path + "[" + (items.size() + 1) + "]"));
        }
        return new YamlNode.Sequence(List.copyOf(items), at);
      default:
        if (((YAMLParser) parser).isCurrentAlias()) {
          problems.add(
              at, keyOf(path), "YAML aliases (*" + parser.getText() + ") are not supported");
        }
        return new YamlNode.Scalar(parser.getText(), token == JsonToken.VALUE_NULL, at);
    }
  }

  private YamlNode mapping(JsonParser parser, String path, Position at) throws IOException {
    List<YamlNode.Entry> entries = new ArrayList<>();
    Map<String, YamlNode.Entry> byKey = new HashMap<>();
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String key = parser.currentName();
      Position keyAt = here(parser);
      parser.nextToken();
      String childPath = path.isEmpty() ? key : path + "." + key;
      YamlNode value = node(parser, childPath);
      YamlNode.Entry entry = new YamlNode.Entry(key, keyAt, value);
      YamlNode.Entry earlier = byKey.putIfAbsent(key, entry);
      if (earlier == null) {
        entries.add(entry);
      } else {
        problems.add(
            keyAt,
            childPath,
            "duplicate key (first written at line " + earlier.keyPosition().line() + ")");
      }
    }
    return new YamlNode.Mapping(List.copyOf(entries), Map.copyOf(byKey), at);
  }

  private Position here(JsonParser parser) {
    JsonLocation l = parser.currentTokenLocation();
    return new Position(file, l.getLineNr(), l.getColumnNr());
  }

  private static String line(String text, int index) {
    String[] lines = text.split("\n", -1);
    return index >= 0 && index < lines.length ? lines[index] : "";
  }

  /**
   * Whether the first {@code ${} of a flow-style line stands in a key: no {@code :} between it
   * and the {@code {} or {@code ,} that began its entry.
   */
  private static boolean holdsSubstitutionInKey(String line) {
    int dollar = line.indexOf("${");
    int start = Math.max(line.lastIndexOf('{', dollar), line.lastIndexOf(',', dollar));
    return start >= 0 && line.substring(start + 1, dollar).indexOf(':') < 0;
  }

  private static String keyOf(String path) {
    return path.isEmpty() ? "(yaml)" : path;
  }

  private Problem syntaxProblem(JsonProcessingException e, String text) {
    if (e.getCause() instanceof MarkedYAMLException m && m.getProblemMark() != null) {
      Mark mark = m.getProblemMark();
      String message = m.getProblem();
      if (m.getContext() != null && m.getContextMark() != null) {
        Mark c = m.getContextMark();
        message +=
            " (" + m.getContext() + " at " + (c.getLine() + 1) + ":" + (c.getColumn() + 1) + ")";
      }
      String marked = line(text, mark.getLine());
      if (message.contains("flow") && marked.contains("${")) {
        // A '{' in "{bs: ${bs}}" opens a nested map: the commonest YAML slip in a matrix.
        message +=
            holdsSubstitutionInKey(marked)
                ? "; inside { } or [ ], quote a key that holds ${...}, e.g."
                    + " \"local.block.${dev}.scheduler\": none"
                : "; inside { } or [ ], quote a value that holds ${...}, e.g. bs: \"${bs}\"";
      } else if (message.startsWith("mapping values are not allowed")) {
        // "run: echo a: b" reads as a map inside a plain value.
        message +=
            "; a ': ' inside a plain value starts a map: quote the value, e.g."
                + " run: \"echo took: 3s\"";
      }
      return new Problem(
          new Position(file, mark.getLine() + 1, mark.getColumn() + 1), "(yaml)", oneLine(message));
    }
    JsonLocation l = e.getLocation();
    String message = e.getOriginalMessage();
    if (message.startsWith("Expected a field name")) {
      message = "a map key must be a single value, not a list or a map";
    }
    return new Problem(
        new Position(file, l == null ? 1 : l.getLineNr(), l == null ? 1 : l.getColumnNr()),
        "(yaml)",
        oneLine(message));
  }

  private static String oneLine(String message) {
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
