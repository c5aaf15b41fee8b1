package io.tunelab.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A test that needs root, the lab or the release archive: {@code mvn verify} runs it (failsafe,
 * after package); {@code mvn test} (surefire) leaves it out, so that it needs neither.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("integration")
public @interface Integration {}
