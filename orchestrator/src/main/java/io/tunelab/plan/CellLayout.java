package io.tunelab.plan;

import io.tunelab.matrix.Axis;
import io.tunelab.matrix.Matrix;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A matrix compiled for expansion: values as arrays, exclusions as index pairs, and the map shapes
 * that cells share. Walks the cross product like nested loops in declared order (the first axis
 * varies slowest), then appends the include entries.
 */
final class CellLayout {
  private final Axis[] axes;
  private final String[][] values;
  private final String[] axisNames;
  private final String[] labelPrefixes;

  /** Per exclude entry: axis index, value index, axis index, value index, … */
  private final int[][] excludes;

  private final List<Map<String, String>> includes;
  private final String[] settingKeys;
  private final String[] settingValues;
  private final int[] knobAxes;
  private final int[] parameterAxes;
  private final int[] caseAxes;

  /** Per cases axis, per case: its entries split into knobs and parameters. */
  private final CaseEntries[][] caseEntries;

  private final CellMap.Shape paramsShape;

  /** Knob and variable shapes per combination of cases, built once and shared. */
  private final Map<Integer, CellMap.Shape[]> shapesByCases = new ConcurrentHashMap<>();

  CellLayout(Matrix m) {
    axes = m.axes().toArray(new Axis[0]);
    int n = axes.length;
    values = new String[n][];
    axisNames = new String[n];
    labelPrefixes = new String[n];
    List<Integer> knob = new ArrayList<>();
    List<Integer> parameter = new ArrayList<>();
    List<Integer> cases = new ArrayList<>();
    for (int a = 0; a < n; a++) {
      values[a] = axes[a].values().toArray(new String[0]);
      axisNames[a] = axes[a].name();
      labelPrefixes[a] = axes[a].label() + "=";
      switch (axes[a].kind()) {
        case KNOB -> knob.add(a);
        case PARAMETER -> parameter.add(a);
        case CASES -> cases.add(a);
      }
    }
    knobAxes = toArray(knob);
    parameterAxes = toArray(parameter);
    caseAxes = toArray(cases);
    settingKeys = m.settings().keySet().toArray(new String[0]);
    settingValues = m.settings().values().toArray(new String[0]);
    caseEntries = new CaseEntries[caseAxes.length][];
    for (int c = 0; c < caseAxes.length; c++) {
      caseEntries[c] = split(axes[caseAxes[c]], m.roles());
    }
    excludes = new int[m.exclude().size()][];
    for (int e = 0; e < excludes.length; e++) {
      excludes[e] = compile(m.exclude().get(e));
    }
    includes = m.include();
    int[] identity = new int[n];
    for (int a = 0; a < n; a++) {
      identity[a] = a;
    }
    paramsShape = new CellMap.Shape(axisNames, identity, new String[n]);
  }

  /** A case's knobs and parameters, each in the order written. */
  private record CaseEntries(Map<String, String> knobs, Map<String, String> vars) {}

  private static CaseEntries[] split(Axis axis, Map<String, String> roles) {
    CaseEntries[] split = new CaseEntries[axis.values().size()];
    for (int k = 0; k < split.length; k++) {
      Map<String, String> knobs = new LinkedHashMap<>();
      Map<String, String> vars = new LinkedHashMap<>();
      for (Map.Entry<String, String> e : axis.cases().get(axis.values().get(k)).entrySet()) {
        int dot = e.getKey().indexOf('.');
        boolean isKnob = dot > 0 && roles.containsKey(e.getKey().substring(0, dot));
        (isKnob ? knobs : vars).put(e.getKey(), e.getValue());
      }
      split[k] = new CaseEntries(knobs, vars);
    }
    return split;
  }

  private int[] compile(Map<String, String> exclude) {
    int[] pairs = new int[exclude.size() * 2];
    int p = 0;
    for (Map.Entry<String, String> e : exclude.entrySet()) {
      int a = axisIndex(e.getKey());
      pairs[p++] = a;
      pairs[p++] = valueIndex(a, e.getValue());
    }
    return pairs;
  }

  private int axisIndex(String name) {
    for (int a = 0; a < axisNames.length; a++) {
      if (axisNames[a].equals(name)) {
        return a;
      }
    }
    throw new IllegalArgumentException("no axis '" + name + "'");
  }

  private int valueIndex(int axis, String value) {
    for (int v = 0; v < values[axis].length; v++) {
      if (values[axis][v].equals(value)) {
        return v;
      }
    }
    return -1; // only an include may hold a value the axis does not list
  }

  private static int[] toArray(List<Integer> list) {
    return list.stream().mapToInt(Integer::intValue).toArray();
  }

  /** The cells in order, made one at a time. */
  Iterator<Cell> cells() {
    return new Cells();
  }

  /**
   * Where each cell of the cross product lies in it (the odometer read as one number, last axis
   * fastest): its ordinal's position when nothing is excluded, so null then.
   */
  private long[] productPositions;

  private volatile int productCount = -1;

  /**
   * The cell with {@code ordinal} (1-based), made on demand: a plan need not hold its cells. The
   * first call walks the cross product once when {@code exclude} removes some of it.
   */
  Cell cell(int ordinal) {
    if (productCount < 0) {
      index();
    }
    if (ordinal < 1 || ordinal > productCount + includes.size()) {
      throw new IndexOutOfBoundsException("no cell " + ordinal);
    }
    if (ordinal > productCount) {
      return includeCell(ordinal, includes.get(ordinal - productCount - 1));
    }
    long position = productPositions == null ? ordinal - 1 : productPositions[ordinal - 1];
    int[] idx = new int[axes.length];
    for (int a = idx.length - 1; a >= 0; a--) {
      idx[a] = (int) (position % values[a].length);
      position /= values[a].length;
    }
    return productCell(ordinal, idx);
  }

  /** The number of cells, as {@link #cell} numbers them. */
  int size() {
    if (productCount < 0) {
      index();
    }
    return productCount + includes.size();
  }

  private synchronized void index() {
    if (productCount >= 0) {
      return;
    }
    long product = 1;
    for (String[] v : values) {
      product *= v.length;
    }
    if (excludes.length == 0 || product == 0) {
      productCount = (int) product;
      return;
    }
    long[] positions = new long[16];
    int n = 0;
    int[] idx = new int[axes.length];
    long position = 0;
    do {
      if (!isExcluded(idx)) {
        if (n == positions.length) {
          positions = Arrays.copyOf(positions, n * 2);
        }
        positions[n++] = position;
      }
      position++;
    } while (step(idx));
    productPositions = Arrays.copyOf(positions, n);
    productCount = n;
  }

  /** The number of cells, without making them. */
  long count() {
    long count = includes.size();
    int[] idx = new int[axes.length];
    do {
      if (!isExcluded(idx)) {
        count++;
      }
    } while (step(idx));
    return count;
  }

  /** Moves the odometer on (last axis fastest); false once every combination was visited. */
  private boolean step(int[] idx) {
    for (int a = idx.length - 1; a >= 0; a--) {
      if (++idx[a] < values[a].length) {
        return true;
      }
      idx[a] = 0;
    }
    return false;
  }

  private boolean isExcluded(int[] idx) {
    for (int[] pairs : excludes) {
      boolean all = true;
      for (int p = 0; p < pairs.length && all; p += 2) {
        all = idx[pairs[p]] == pairs[p + 1];
      }
      if (all) {
        return true;
      }
    }
    return false;
  }

  private Cell productCell(int ordinal, int[] idx) {
    String[] chosen = new String[axes.length];
    for (int a = 0; a < chosen.length; a++) {
      chosen[a] = values[a][idx[a]];
    }
    int[] caseIndex = new int[caseAxes.length];
    for (int c = 0; c < caseIndex.length; c++) {
      caseIndex[c] = idx[caseAxes[c]];
    }
    return cell(ordinal, chosen, caseIndex);
  }

  private Cell includeCell(int ordinal, Map<String, String> include) {
    String[] chosen = new String[axes.length];
    for (int a = 0; a < chosen.length; a++) {
      chosen[a] = include.get(axisNames[a]);
    }
    int[] caseIndex = new int[caseAxes.length];
    for (int c = 0; c < caseIndex.length; c++) {
      caseIndex[c] = valueIndex(caseAxes[c], chosen[caseAxes[c]]);
    }
    return cell(ordinal, chosen, caseIndex);
  }

  private Cell cell(int ordinal, String[] chosen, int[] caseIndex) {
    CellMap.Shape[] shapes = shapesFor(caseIndex);
    return new Cell(
        ordinal,
        label(chosen),
        new CellMap(paramsShape, chosen),
        new CellMap(shapes[0], chosen),
        new CellMap(shapes[1], chosen));
  }

  /** The knobs and vars shapes of a combination of cases, built once and shared. */
  private CellMap.Shape[] shapesFor(int[] caseIndex) {
    int combination = 0;
    for (int c = 0; c < caseIndex.length; c++) {
      combination = combination * values[caseAxes[c]].length + caseIndex[c];
    }
    return shapesByCases.computeIfAbsent(combination, unused -> buildShapes(caseIndex));
  }

  private CellMap.Shape[] buildShapes(int[] caseIndex) {
    ShapeBuilder knobs = new ShapeBuilder();
    for (int i = 0; i < settingKeys.length; i++) {
      knobs.fixed(settingKeys[i], settingValues[i]);
    }
    for (int a : knobAxes) {
      knobs.axis(axisNames[a], a);
    }
    ShapeBuilder vars = new ShapeBuilder();
    for (int a : parameterAxes) {
      vars.axis(axisNames[a], a);
    }
    for (int c = 0; c < caseAxes.length; c++) {
      CaseEntries chosen = caseEntries[c][caseIndex[c]];
      chosen.knobs().forEach(knobs::fixed);
      chosen.vars().forEach(vars::fixed);
    }
    return new CellMap.Shape[] {knobs.build(), vars.build()};
  }

  /** Collects the entries of a shape in order. */
  private static final class ShapeBuilder {
    private final List<String> keys = new ArrayList<>();
    private final List<Integer> axes = new ArrayList<>();
    private final List<String> fixed = new ArrayList<>();

    void axis(String key, int axis) {
      keys.add(key);
      axes.add(axis);
      fixed.add(null);
    }

    void fixed(String key, String value) {
      keys.add(key);
      axes.add(-1);
      fixed.add(value);
    }

    CellMap.Shape build() {
      return new CellMap.Shape(
          keys.toArray(new String[0]), toArray(axes), fixed.toArray(new String[0]));
    }
  }

  private String label(String[] chosen) {
    if (chosen.length == 0) {
      return "-";
    }
    StringBuilder label = new StringBuilder(chosen.length * 16);
    for (int a = 0; a < chosen.length; a++) {
      if (a > 0) {
        label.append('/');
      }
      label.append(labelPrefixes[a]).append(chosen[a]);
    }
    return label.toString();
  }

  /** The cross product minus exclusions, then the includes, numbered from 1. */
  private final class Cells implements Iterator<Cell> {
    private final int[] idx = new int[axes.length];
    private boolean productLeft = true;
    private int includeNext;
    private int ordinal;
    private Cell pending;

    @Override
    public boolean hasNext() {
      if (pending == null) {
        pending = advance();
      }
      return pending != null;
    }

    @Override
    public Cell next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      Cell cell = pending;
      pending = null;
      return cell;
    }

    private Cell advance() {
      while (productLeft) {
        Cell cell = isExcluded(idx) ? null : productCell(++ordinal, idx);
        productLeft = step(idx);
        if (cell != null) {
          return cell;
        }
      }
      if (includeNext < includes.size()) {
        return includeCell(++ordinal, includes.get(includeNext++));
      }
      return null;
    }
  }
}
