package io.tunelab.view;

import io.tunelab.matrix.Sizes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** How {@code tunelab hosts facts} prints its {@link HostDescription}s: a table or JSON. */
public final class HostFactsOutput {
  private static final List<String> DEVICE_COLUMNS =
      List.of(
          "DEVICE",
          "SIZE",
          "ROTATIONAL",
          "SCHEDULER",
          "READ_AHEAD_KB",
          "MAX_SECTORS_KB",
          "MAX_HW_SECTORS_KB");

  private HostFactsOutput() {}

  /**
   * One section per host: a summary line, its CPU, kernel config and boot lines, a table of block
   * devices (with a MODEL column when a disk tells its model), the vm settings.
   */
  public static String text(List<HostDescription> hosts) {
    StringBuilder out = new StringBuilder();
    for (HostDescription h : hosts) {
      if (out.length() > 0) {
        out.append('\n');
      }
      header(h, out);
      out.append('\n');
      boolean models = h.devices().stream().anyMatch(d -> d.model() != null || d.vendor() != null);
      List<List<String>> rows = new ArrayList<>();
      rows.add(new ArrayList<>(DEVICE_COLUMNS));
      if (models) {
        rows.get(0).add("MODEL");
      }
      for (HostDescription.Device d : h.devices()) {
        List<String> row = new ArrayList<>();
        row.add(d.name());
        row.add(d.sectors() < 0 ? "-" : Sizes.show(d.sectors() * 512));
        String rotational = d.queue().get("rotational");
        row.add(rotational == null ? "-" : rotational.equals("1") ? "yes" : "no");
        String line = d.schedulerLine().trim();
        row.add(line.isEmpty() ? "-" : line);
        for (String q : HostDescription.QUEUE.subList(1, HostDescription.QUEUE.size())) {
          String v = d.queue().get(q);
          row.add(v == null ? "-" : v);
        }
        if (models) {
          row.add(model(d));
        }
        rows.add(row);
      }
      table(rows, out);
      out.append('\n');
      List<List<String>> vm = new ArrayList<>();
      h.vm().forEach((k, v) -> vm.add(List.of(k, v == null ? "-" : v)));
      table(vm, out);
    }
    return out.toString();
  }

  /** The summary line, then the CPU, kernel config and boot lines of what the host tells. */
  private static void header(HostDescription h, StringBuilder out) {
    out.append("host ")
        .append(h.host())
        .append(": kernel ")
        .append(h.kernelRelease())
        .append(", ")
        .append(h.cpus())
        .append(" CPUs, ")
        .append(Sizes.show(h.memKb() * 1024))
        .append(" memory, hostname ")
        .append(h.hostname())
        .append("\n");
    if (h.cpuModel() != null || h.cpufreqGovernor() != null) {
      out.append("cpu ")
          .append(h.cpuModel() == null ? "-" : h.cpuModel())
          .append(", cpufreq governor ")
          .append(h.cpufreqGovernor() == null ? "-" : h.cpufreqGovernor())
          .append('\n');
    }
    if (h.kernelConfig() != null) {
      out.append("kernel config ").append(h.kernelConfig()).append('\n');
    }
    if (h.cmdline() != null) {
      out.append("boot ").append(h.bootId()).append(": ").append(h.cmdline()).append('\n');
    }
  }

  /** One JSON array, an object per host; a host that could not be asked has only its error. */
  public static String json(List<HostDescription> hosts, Map<String, String> errors) {
    List<Map<String, Object>> doc = new ArrayList<>();
    for (HostDescription h : hosts) {
      Map<String, Object> host = new LinkedHashMap<>();
      host.put("host", h.host());
      host.put("kernel_release", h.kernelRelease());
      host.put("boot_id", h.bootId());
      host.put("cmdline", h.cmdline());
      host.put("hostname", h.hostname());
      host.put("cpus", number(h.cpus()));
      host.put("mem_kb", h.memKb());
      host.put("cpu_model", h.cpuModel());
      host.put("cpufreq_governor", h.cpufreqGovernor());
      host.put("kernel_config", h.kernelConfig());
      List<Map<String, Object>> devices = new ArrayList<>();
      for (HostDescription.Device d : h.devices()) {
        Map<String, Object> dev = new LinkedHashMap<>();
        dev.put("name", d.name());
        dev.put("size_bytes", d.sectors() < 0 ? null : d.sectors() * 512);
        String rotational = d.queue().get("rotational");
        dev.put("rotational", rotational == null ? null : rotational.equals("1"));
        dev.put("scheduler", d.current());
        dev.put("schedulers", d.schedulers());
        for (String q : HostDescription.QUEUE.subList(1, HostDescription.QUEUE.size())) {
          dev.put(q, number(d.queue().get(q)));
        }
        dev.put("model", d.model());
        dev.put("vendor", d.vendor());
        devices.add(dev);
      }
      host.put("block_devices", devices);
      Map<String, Object> vm = new LinkedHashMap<>();
      h.vm().forEach((k, v) -> vm.put(k.substring("vm.".length()), number(v)));
      host.put("vm", vm);
      doc.add(host);
    }
    errors.forEach(
        (host, error) -> doc.add(new LinkedHashMap<>(Map.of("host", host, "error", error))));
    return PrettyJson.write(doc);
  }

  /** Vendor and model as lsblk shows them side by side: {@code ATA ST2000DM008-2FR1}; {@code -}. */
  private static String model(HostDescription.Device d) {
    if (d.model() == null && d.vendor() == null) {
      return "-";
    }
    return d.vendor() == null
        ? d.model()
        : d.model() == null ? d.vendor() : d.vendor() + " " + d.model();
  }

  /** A decimal integer as a number, anything else as it is (null stays null). */
  private static Object number(String value) {
    return value != null && value.matches("-?[0-9]{1,18}") ? Long.parseLong(value) : value;
  }

  /** Columns padded to their widest cell, two blanks apart, without trailing blanks. */
  private static void table(List<List<String>> rows, StringBuilder out) {
    int[] width = new int[rows.get(0).size()];
    for (List<String> row : rows) {
      for (int i = 0; i < row.size(); i++) {
        width[i] = Math.max(width[i], row.get(i).length());
      }
    }
    for (List<String> row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < row.size(); i++) {
        line.append(row.get(i));
        if (i < row.size() - 1) {
          line.append(" ".repeat(width[i] - row.get(i).length() + 2));
        }
      }
      out.append(line.toString().stripTrailing()).append('\n');
    }
  }
}
