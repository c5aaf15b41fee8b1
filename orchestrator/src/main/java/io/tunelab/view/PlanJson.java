package io.tunelab.view;

import io.tunelab.matrix.Matrix;
import io.tunelab.matrix.RepeatRule;
import io.tunelab.plan.Cell;
import io.tunelab.plan.Transitions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code tunelab plan --format json}: the counts, the repeat rule, the boots per host, the
 * transitions of each order (unless {@code --summary} comes without {@code --transitions}) and,
 * without {@code --summary}, the cells in the order they are listed.
 */
public final class PlanJson {
  private PlanJson() {}

  /**
   * One host's boots when it runs {@code start} (the release the plan asks first) as the run
   * starts, and when it runs another ({@code otherwise}, null for {@code default}).
   */
  public record HostBoots(String host, String start, int boots, Integer otherwise) {}

  public static String render(
      Matrix m,
      int cells,
      int trials,
      List<HostBoots> boots,
      Map<Matrix.Order, Transitions> transitions,
      List<Cell> listed) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("name", m.name());
    doc.put("cells", cells);
    RepeatRule rule = m.repeatRule();
    Map<String, Object> repeat = new LinkedHashMap<>();
    repeat.put("min", rule.min());
    repeat.put("max", rule.max());
    repeat.put("target", rule.adaptive() ? rule.target() : null);
    repeat.put("metric", rule.metric());
    if (rule.compares()) {
      repeat.put("compare", rule.compare());
    }
    doc.put("repeat", repeat);
    doc.put("warmup", m.warmup());
    Map<String, Object> count = new LinkedHashMap<>();
    count.put("min", (long) cells * ((rule.adaptive() ? rule.min() : rule.max()) + m.warmup()));
    count.put("max", trials);
    doc.put("trials", count);
    doc.put("order", m.order().text());
    doc.put("seed", m.seed());
    doc.put("set", m.overrides());
    List<Map<String, Object>> hosts = new ArrayList<>();
    for (HostBoots b : boots) {
      Map<String, Object> h = new LinkedHashMap<>();
      h.put("host", b.host());
      h.put("first_release", b.start());
      h.put("boots", b.boots());
      h.put("boots_from_another_release", b.otherwise());
      hosts.add(h);
    }
    doc.put("boots", hosts);
    if (transitions != null) {
      Map<String, Object> orders = new LinkedHashMap<>();
      transitions.forEach(
          (order, t) -> {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("cell_steps_run", t.cellSetups());
            o.put("knob_writes", t.knobWrites());
            o.put("queue_freezing_writes", t.freezingWrites());
            o.put("kernels_booted", t.boots());
            orders.put(order.text(), o);
          });
      doc.put("transitions", orders);
    }
    if (listed != null) {
      List<Map<String, Object>> list = new ArrayList<>();
      for (Cell c : listed) {
        Map<String, Object> cell = new LinkedHashMap<>();
        cell.put("ordinal", c.ordinal());
        cell.put("label", c.label());
        cell.put("params", c.params());
        cell.put("knobs", c.knobs());
        list.add(cell);
      }
      doc.put("cell_list", list);
    }
    return PrettyJson.write(doc);
  }
}
