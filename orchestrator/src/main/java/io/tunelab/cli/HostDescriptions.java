package io.tunelab.cli;

import io.tunelab.agent.Facts;
import io.tunelab.knob.ReadResult;
import io.tunelab.view.HostDescription;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What {@code tunelab hosts facts} reads of a host for its {@link HostDescription}. */
final class HostDescriptions {
  private HostDescriptions() {}

  /** The files to read for {@code facts}' block devices and the vm settings. */
  static List<String> paths(Facts facts) {
    List<String> paths = new ArrayList<>();
    for (String dev : facts.schedulers().keySet()) {
      paths.add(block(dev) + "/size");
      HostDescription.QUEUE.forEach(q -> paths.add(block(dev) + "/queue/" + q));
    }
    HostDescription.VM.forEach(v -> paths.add("/proc/sys/vm/" + v));
    return paths;
  }

  /** The description of {@code host} from its facts and the files of {@link #paths}. */
  static HostDescription of(String host, Facts facts, Map<String, ReadResult> read) {
    List<HostDescription.Device> devices = new ArrayList<>();
    facts
        .schedulers()
        .forEach(
            (dev, line) -> {
              Map<String, String> queue = new LinkedHashMap<>();
              HostDescription.QUEUE.forEach(
                  q -> queue.put(q, value(read, block(dev) + "/queue/" + q)));
              String size = value(read, block(dev) + "/size");
              long sectors =
                  size != null && size.matches("[0-9]{1,18}") ? Long.parseLong(size) : -1;
              devices.add(
                  new HostDescription.Device(
                      dev,
                      sectors,
                      line,
                      queue,
                      facts.models().get(dev),
                      facts.vendors().get(dev)));
            });
    Map<String, String> vm = new LinkedHashMap<>();
    HostDescription.VM.forEach(v -> vm.put("vm." + v, value(read, "/proc/sys/vm/" + v)));
    return new HostDescription(
        host,
        facts.kernelRelease(),
        facts.get("boot_id"),
        facts.get("cmdline"),
        facts.get("hostname"),
        facts.cpus(),
        facts.memKb(),
        facts.get("cpu_model"),
        facts.get("cpufreq_governor"),
        facts.get("kernel_config"),
        devices,
        vm);
  }

  private static String block(String dev) {
    return "/sys/block/" + dev;
  }

  private static String value(Map<String, ReadResult> read, String path) {
    ReadResult r = read.get(path);
    return r == null || !r.exists() ? null : r.raw().trim();
  }
}
