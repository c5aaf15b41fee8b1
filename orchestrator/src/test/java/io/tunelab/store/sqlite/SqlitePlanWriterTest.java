package io.tunelab.store.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SqlitePlanWriterTest {
  @Test
  void factsJsonIsWhatObjectMapperWrites() throws Exception {
    Map<String, String> facts = new LinkedHashMap<>();
    facts.put("kernel_release", "6.1.0-18-amd64");
    facts.put("quoted \"key\"", "back\\slash/slash");
    facts.put("controls", "tab\tnew\nline\r\b\f\u0001\u001f\u007f");
    facts.put("unicode", "é ü \u2028 \uD83D\uDE00");
    facts.put("missing", null);
    facts.put("", "");
    assertEquals(
        new ObjectMapper().writeValueAsString(facts), SqlitePlanWriter.factsJson("h", facts));
    assertEquals("{}", SqlitePlanWriter.factsJson("h", Map.of()));
  }
}
