package io.tunelab.plan;

import io.tunelab.matrix.Kernels;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One combination of axis values.
 *
 * @param ordinal 1-based position in expansion order
 * @param label the parameters as {@code read_ahead_kb=512/scheduler=none/bs=64M}
 * @param params axis name (as written) to value; for a cases axis the case name
 * @param knobs every role-qualified knob this cell sets (settings, knob axes, case entries),
 *     template names as written, to the requested value ({@code default} allowed); a role's kernel
 *     ({@code ROLE.kernel}) is among them
 * @param vars the parameters substitutable as {@code ${name}}: plain parameters and case parameters
 *     (knob axes are not variables)
 */
public record Cell(
    int ordinal,
    String label,
    Map<String, String> params,
    Map<String, String> knobs,
    Map<String, String> vars) {

  /**
   * What {@code ${…}} resolves to in one trial of this cell: captured variables, then the cell's
   * parameters, then {@code ${rep}}.
   */
  public Map<String, String> trialVars(Map<String, String> captures, int rep) {
    Map<String, String> all = new LinkedHashMap<>(captures);
    all.putAll(vars);
    all.put("rep", Integer.toString(rep));
    return all;
  }

  /**
   * Role to the kernel release this cell runs it on, for the roles the cell names a kernel for
   * ({@code default} allowed, {@code ${…}} resolved with {@code vars}).
   */
  public Map<String, String> kernels() {
    Map<String, String> kernels = new LinkedHashMap<>();
    knobs.forEach(
        (key, value) -> {
          if (Kernels.isKey(key)) {
            kernels.put(Kernels.roleOf(key), value);
          }
        });
    return kernels;
  }
}
