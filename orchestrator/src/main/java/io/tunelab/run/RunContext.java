package io.tunelab.run;

import io.tunelab.store.RunStore;
import io.tunelab.trace.PhaseTrace;
import java.time.Clock;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * What the parts of one run share: its hosts' sessions and states, how hosts are reached and
 * booted, the store and the experiment, where lines go, whether Ctrl-C came, the clock and the
 * trace.
 */
record RunContext(
    Hosts hosts,
    HostStates states,
    HostConnector connector,
    RunStore store,
    long experimentId,
    Consumer<String> out,
    BooleanSupplier interrupted,
    Clock clock,
    PhaseTrace trace) {}
