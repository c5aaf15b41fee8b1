package io.tunelab.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The JSON Schemas of docs/schema, applied by a real validator (networknt) to YAML read the way an
 * editor reads it: as a JSON document, with comments, positions and duplicate keys gone.
 */
public final class JsonSchemas {
  private static final YAMLMapper YAML = new YAMLMapper();

  /** As editors parse: a key written twice is an error of the YAML, not of its content. */
  private static final YAMLMapper STRICT_YAML =
      YAMLMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

  private JsonSchemas() {}

  /** The text of {@code docs/schema/NAME.schema.json}. */
  public static String text(String name) {
    return RepoFiles.read(RepoFiles.repoRoot().resolve("docs/schema/" + name + ".schema.json"));
  }

  /** The schema {@code docs/schema/NAME.schema.json}, as draft-07 says it is. */
  public static Schema load(String name) {
    return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7).getSchema(text(name));
  }

  /** The YAML text as JSON; an empty file is {@code null}. */
  public static JsonNode json(String yaml) throws JsonProcessingException {
    JsonNode node = YAML.readTree(yaml);
    return node == null || node.isMissingNode() ? NullNode.getInstance() : node;
  }

  /** Why an editor's YAML parser refuses the text (malformed, a key written twice), or null. */
  public static String yamlProblem(String yaml) {
    try {
      STRICT_YAML.readTree(yaml);
      return null;
    } catch (JsonProcessingException e) {
      return e.getOriginalMessage();
    }
  }

  /** What the schema says about the YAML text: one line per error, none when it is valid. */
  public static List<String> errors(Schema schema, String yaml) throws JsonProcessingException {
    return schema.validate(json(yaml)).stream().map(Error::toString).toList();
  }

  /** Every key under {@code properties} anywhere in the schema. */
  public static Set<String> declaredKeys(String name) throws JsonProcessingException {
    Set<String> keys = new TreeSet<>();
    collect(YAML.readTree(text(name)), "properties", keys);
    return keys;
  }

  /** Every map key anywhere in the YAML text. */
  public static Set<String> usedKeys(String yaml) throws JsonProcessingException {
    Set<String> keys = new TreeSet<>();
    collect(json(yaml), null, keys);
    return keys;
  }

  /** Collects the keys of every map (only of maps under {@code field}, when given). */
  private static void collect(JsonNode node, String field, Set<String> keys) {
    if (node.isObject()) {
      Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
      while (fields.hasNext()) {
        Map.Entry<String, JsonNode> e = fields.next();
        if (field == null) {
          keys.add(e.getKey());
        } else if (e.getKey().equals(field) && e.getValue().isObject()) {
          e.getValue().fieldNames().forEachRemaining(keys::add);
        }
        collect(e.getValue(), field, keys);
      }
    } else if (node.isArray()) {
      node.forEach(item -> collect(item, field, keys));
    }
  }
}
