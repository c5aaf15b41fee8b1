package io.tunelab.run;

import io.tunelab.agent.AgentSession;
import io.tunelab.agent.RequestTimer;
import io.tunelab.agents.AgentScript;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/** The agent sessions of an experiment, one per host however many roles it plays. */
public final class Hosts implements AutoCloseable {
  private final Map<String, String> roleToHost;
  private final HostConnector connector;
  private final RequestTimer timer;
  // Replaced by reconnect() while Ctrl-C may read it from another thread: guarded by this.
  private final Map<String, AgentSession> sessions = new LinkedHashMap<>();
  private final ExecutorService pool;

  /** Set by Ctrl-C: no trial is released on any host after it. */
  private volatile boolean stopping;

  private Hosts(Map<String, String> roleToHost, HostConnector connector, RequestTimer timer) {
    this.roleToHost = Map.copyOf(roleToHost);
    this.connector = connector;
    this.timer = timer;
    this.pool =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "tunelab-host");
              t.setDaemon(true);
              return t;
            });
  }

  /** Connects to every host of {@code roles} (role to host) and starts its agent. */
  public static Hosts connect(Map<String, String> roles, HostConnector connector) {
    return connect(roles, connector, RequestTimer.NONE);
  }

  /** {@link #connect(Map, HostConnector)}, telling {@code timer} how long each request took. */
  public static Hosts connect(
      Map<String, String> roles, HostConnector connector, RequestTimer timer) {
    Hosts hosts = new Hosts(roles, connector, timer);
    try {
      List<String> names = roles.values().stream().distinct().toList();
      Map<String, AgentSession> started =
          hosts.forEachName(
              names,
              name -> AgentSession.start(connector.connect(name), AgentScript.load(), timer));
      synchronized (hosts) {
        hosts.sessions.putAll(started);
      }
      return hosts;
    } catch (RuntimeException e) {
      hosts.close();
      throw e;
    }
  }

  /** Asks that no trial be released any more (Ctrl-C); the one running is cancelled apart. */
  public void stop() {
    stopping = true;
  }

  boolean stopping() {
    return stopping;
  }

  public String hostOf(String role) {
    return roleToHost.get(role);
  }

  public synchronized AgentSession session(String host) {
    return sessions.get(host);
  }

  public Map<String, String> roles() {
    return roleToHost;
  }

  public synchronized List<AgentSession> all() {
    return List.copyOf(sessions.values());
  }

  /** Runs {@code action} on every host at once and returns the results by host name. */
  public <T> Map<String, T> parallel(Function<AgentSession, T> action) {
    List<String> names;
    synchronized (this) {
      names = List.copyOf(sessions.keySet());
    }
    return forEachName(names, name -> action.apply(session(name)));
  }

  /**
   * The hosts whose session can never answer again (its connection or agent was lost, or a request
   * timed out), in the order the hosts were connected.
   */
  public List<String> lost() {
    return all().stream().filter(s -> !s.isOpen()).map(AgentSession::host).toList();
  }

  /**
   * Replaces {@code host}'s session: closes the old one and starts a new agent, over the host's SSH
   * connection if it is still up, else over a new one (which checks the host key again). The new
   * agent takes over from the old one, whose input has ended (docs/agent.md).
   *
   * @throws io.tunelab.TunelabException when the host cannot be reached or the agent not started
   */
  public AgentSession reconnect(String host) {
    AgentSession old = session(host);
    if (old != null && old.isOpen()) {
      old.close();
    }
    AgentSession fresh = AgentSession.start(connector.connect(host), AgentScript.load(), timer);
    synchronized (this) {
      sessions.put(host, fresh);
    }
    return fresh;
  }

  /**
   * Runs {@code action} at once on each host of {@code names}; when some fail, throws the first
   * failure (the others suppressed) after all have finished.
   */
  public <T> Map<String, T> parallel(Collection<String> names, Function<AgentSession, T> action) {
    return forEachName(List.copyOf(names), name -> action.apply(sessions.get(name)));
  }

  private <T> Map<String, T> forEachName(List<String> names, Function<String, T> action) {
    Map<String, Future<T>> futures = new LinkedHashMap<>();
    for (String name : names) {
      Callable<T> task = () -> action.apply(name);
      futures.put(name, pool.submit(task));
    }
    Map<String, T> results = new LinkedHashMap<>();
    List<RuntimeException> failures = new ArrayList<>();
    for (Map.Entry<String, Future<T>> f : futures.entrySet()) {
      try {
        results.put(f.getKey(), f.getValue().get());
      } catch (ExecutionException e) {
        failures.add(
            e.getCause() instanceof RuntimeException r ? r : new RuntimeException(e.getCause()));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        failures.add(new IllegalStateException("interrupted", e));
      }
    }
    if (!failures.isEmpty()) {
      RuntimeException first = failures.get(0);
      failures.stream().skip(1).forEach(first::addSuppressed);
      throw first;
    }
    return results;
  }

  @Override
  public void close() {
    all().forEach(AgentSession::close);
    pool.shutdownNow();
  }
}
