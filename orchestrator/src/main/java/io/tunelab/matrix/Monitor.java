package io.tunelab.matrix;

import io.tunelab.yaml.Position;
import java.time.Duration;
import java.util.List;

/**
 * A monitor: {@code vmstat}, {@code iostat} or {@code mpstat} sampling the hosts of {@code roles}
 * every {@code interval} while the jobs run.
 *
 * @param devices iostat's devices, templates that may expand a list ({@code ${devs[*]}}); empty for
 *     every device
 */
public record Monitor(
    String tool, List<String> roles, Duration interval, List<String> devices, Position position) {}
