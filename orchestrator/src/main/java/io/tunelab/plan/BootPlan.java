package io.tunelab.plan;

import io.tunelab.matrix.Kernels;
import io.tunelab.matrix.Matrix;
import io.tunelab.matrix.MatrixException;
import io.tunelab.yaml.Position;
import io.tunelab.yaml.Problem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Which release each host runs in each trial, and in which of its boots (docs/kernels.md). Trials
 * are grouped kernel-major: by the combination of releases, in the order the cells first ask for
 * it, then by boot, so a plan boots each host as rarely as it can.
 */
public final class BootPlan {
  /** The built-in host, which the run that drives it cannot boot. */
  private static final String LOCAL = "local";

  private final Map<String, List<String>> rolesByHost;
  private final Set<String> like;
  private final int boots;
  private final int warmup;
  private final int repeat;
  private final Position where;

  /**
   * What a host must run for a trial.
   *
   * @param release a release as {@code uname -r} prints it, or {@code default}
   * @param round which of the {@code boots:} of that release, from 1; 0 for a boot the run did not
   *     make (the one the experiment started on, under like boots)
   */
  public record Want(String release, int round) {
    /** This want with {@code default} replaced by {@code start}, the release the host began on. */
    public Want resolved(String start) {
      return release.equals(Kernels.DEFAULT) ? new Want(start, round) : this;
    }
  }

  private BootPlan(
      Map<String, List<String>> rolesByHost,
      Set<String> like,
      int boots,
      int warmup,
      int repeat,
      Position where) {
    this.rolesByHost = rolesByHost;
    this.like = like;
    this.where = where;
    this.boots = boots;
    this.warmup = warmup;
    this.repeat = repeat;
  }

  /**
   * The hosts a matrix boots: those of the roles a {@code ROLE.kernel} axis, case or setting names.
   *
   * @throws MatrixException for a kernel of the built-in host {@code local}
   */
  public static BootPlan of(Matrix m) {
    Map<String, List<String>> byHost = new LinkedHashMap<>();
    Set<String> like = new LinkedHashSet<>();
    m.roles()
        .forEach(
            (role, host) -> {
              if (namesKernel(m, Kernels.keyOf(role))) {
                if (host.equals(LOCAL)) {
                  throw new MatrixException(
                      new Problem(
                          m.matrixAt(),
                          Kernels.keyOf(role),
                          "role "
                              + role
                              + " is the local host, which the run that drives it cannot boot;"
                              + " give the role a host of the inventory"));
                }
                byHost.computeIfAbsent(host, h -> new ArrayList<>()).add(role);
                if (m.likeBoots() && variesKernel(m, Kernels.keyOf(role))) {
                  like.add(host);
                }
              }
            });
    return new BootPlan(byHost, like, m.boots(), m.warmup(), m.repeat(), m.matrixAt());
  }

  private static boolean namesKernel(Matrix m, String key) {
    return m.settings().containsKey(key) || variesKernel(m, key);
  }

  /** Whether an axis or a case names the kernel: the release is what the trials compare. */
  private static boolean variesKernel(Matrix m, String key) {
    return m.axes().stream()
        .anyMatch(
            a ->
                a.name().equals(key)
                    || a.cases().values().stream().anyMatch(c -> c.containsKey(key)));
  }

  /** Whether the plan boots no host at all. */
  public boolean none() {
    return rolesByHost.isEmpty();
  }

  /** The hosts the plan may boot, in role order. */
  public Set<String> hosts() {
    return rolesByHost.keySet();
  }

  /**
   * Whether {@code host} is measured only on boots the run makes (like boots): its kernel is an
   * axis, so the boot it starts on, made another way (a cold boot through the firmware and the boot
   * loader, hours of uptime), measures nothing and the start release is booted into like the
   * others.
   */
  public boolean like(String host) {
    return like.contains(host);
  }

  /** Where {@code host} stands before the run boots it: round 0 of the start release when like. */
  public Want start(String host, String release) {
    return new Want(release, like(host) ? 0 : 1);
  }

  /** How many times each release is booted ({@code boots:}). */
  public int boots() {
    return boots;
  }

  /** Which boot of its release run {@code rep} of a cell falls in: warm-ups go to the first. */
  public int round(int rep) {
    return roundOf(rep, warmup, repeat, boots);
  }

  /** How many of a cell's measured runs fall in boot {@code round} of its release. */
  public int measuredIn(int round) {
    int n = 0;
    for (int rep = warmup + 1; rep <= warmup + repeat; rep++) {
      n += round(rep) == round ? 1 : 0;
    }
    return n;
  }

  /** {@link #round} for the given counts; the measured runs are split in consecutive chunks. */
  static int roundOf(int rep, int warmup, int repeat, int boots) {
    if (rep <= warmup || boots <= 1) {
      return 1;
    }
    return (int) ((long) (rep - warmup - 1) * boots / repeat) + 1;
  }

  /**
   * Host to what it must run in run {@code rep} of {@code cell}; a booted host whose roles the cell
   * leaves alone runs {@code default}.
   *
   * @throws MatrixException when two roles of one host ask for different releases
   */
  public Map<String, Want> wants(Cell cell, int rep) {
    Map<String, String> kernels = cell.kernels();
    Map<String, Want> wants = new LinkedHashMap<>();
    int round = round(rep);
    rolesByHost.forEach(
        (host, roles) -> {
          String release = null;
          for (String role : roles) {
            String r = kernels.getOrDefault(role, Kernels.DEFAULT);
            if (release != null && !release.equals(r)) {
              throw new MatrixException(
                  new Problem(
                      where,
                      Kernels.keyOf(role),
                      "roles "
                          + String.join(" and ", roles)
                          + " are one host, "
                          + host
                          + ", and cell "
                          + cell.label()
                          + " asks it for kernels "
                          + release
                          + " and "
                          + r));
            }
            release = r;
          }
          wants.put(host, new Want(release, round));
        });
    return wants;
  }

  /**
   * A search's round in blocks of one combination of releases, so that a round boots each host as
   * rarely as it can: the blocks in the order their releases first appear among {@code all} cells,
   * reversed in even rounds (A B, then B A: a round begins on the release the last one ended on),
   * the cells of a block in the round's own order.
   *
   * @param round ordinals of {@code all} (from 1), in the order the search drew them
   * @param number the round's number, from 1
   */
  public List<Integer> blocks(List<Integer> round, List<Cell> all, int number) {
    if (none()) {
      return round;
    }
    List<List<String>> rank = new ArrayList<>();
    for (Cell c : all) {
      List<String> g = group(c);
      if (!rank.contains(g)) {
        rank.add(g);
      }
    }
    Map<Integer, List<Integer>> byBlock = new TreeMap<>();
    for (int ordinal : round) {
      int r = rank.indexOf(group(all.get(ordinal - 1)));
      byBlock.computeIfAbsent(number % 2 == 0 ? -r : r, k -> new ArrayList<>()).add(ordinal);
    }
    List<Integer> ordered = new ArrayList<>();
    byBlock.values().forEach(ordered::addAll);
    return ordered;
  }

  /** The releases a cell asks of the booted hosts, in host order: trials are grouped by it. */
  List<String> group(Cell cell) {
    List<String> key = new ArrayList<>();
    wants(cell, 1).values().forEach(w -> key.add(w.release()));
    return key;
  }

  /**
   * How many boots {@code host} needs for {@code trials} in order, starting on release {@code
   * start} and ending on it again.
   */
  public int bootsNeeded(String host, List<Trial> trials, List<Cell> cells, String start) {
    Want current = start(host, start);
    int count = 0;
    for (Trial t : trials) {
      Want w = wants(cells.get(t.cellOrdinal() - 1), t.rep()).get(host).resolved(start);
      if (!w.equals(current)) {
        count++;
        current = w;
      }
    }
    return current.release().equals(start) ? count : count + 1;
  }
}
