package io.tunelab.agents;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** The packaged script and its content-hash name. */
class AgentScriptTest {

  @Test
  void nameAndHashFollowTheContent() throws Exception {
    AgentScript script = AgentScript.load();
    String expected =
        HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(script.bytes()));

    assertEquals(expected, script.sha256());
    assertEquals("tunelab-agent-" + expected.substring(0, 16) + ".sh", script.fileName());
    assertTrue(script.text().startsWith("#!/bin/sh\n"));
  }

  @Test
  void bytesAreACopy() {
    AgentScript script = AgentScript.load();
    byte[] first = script.bytes();
    first[0] = 'X';

    assertArrayEquals(AgentScript.load().bytes(), script.bytes());
    assertEquals('#', script.bytes()[0]);
  }
}
