package io.snowid.node.internal;

import io.snowid.node.HostEnvironment;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Where this process runs, as far as choosing node values goes: a plain host, a container, or a
 * Kubernetes pod (a container too). Each with the evidence it was recognised by, for messages.
 *
 * @param kind what it is
 * @param evidence what showed it, e.g. {@code "/.dockerenv exists"}; empty for a plain host
 */
record Platform(Kind kind, String evidence) {
  enum Kind {
    HOST,
    CONTAINER,
    KUBERNETES
  }

  /** Files whose existence marks a container: Docker's, Podman's, systemd-nspawn's. */
  private static final List<String> MARKERS =
      List.of("/.dockerenv", "/run/.containerenv", "/run/systemd/container");

  /** Words in a cgroup path (cgroup v1, or v2 without a cgroup namespace) of a container. */
  private static final List<String> CGROUP_WORDS =
      List.of("docker", "kubepods", "containerd", "libpod", "lxc", "crio", "buildkit");

  static Platform detect(HostEnvironment env) {
    String k8s = env.variable("KUBERNETES_SERVICE_HOST");
    if (k8s != null && !k8s.isBlank()) {
      return new Platform(Kind.KUBERNETES, "KUBERNETES_SERVICE_HOST is set");
    }
    for (String marker : MARKERS) {
      if (env.readFile(marker).isPresent()) {
        return new Platform(Kind.CONTAINER, marker + " exists");
      }
    }
    for (String file : List.of("/proc/1/cgroup", "/proc/self/cgroup")) {
      Optional<String> cgroup = env.readFile(file);
      if (cgroup.isPresent()) {
        String text = cgroup.get().toLowerCase(Locale.ROOT);
        for (String word : CGROUP_WORDS) {
          if (text.contains(word)) {
            return new Platform(Kind.CONTAINER, file + " names " + word);
          }
        }
      }
    }
    return new Platform(Kind.HOST, "");
  }

  boolean isKubernetes() {
    return kind == Kind.KUBERNETES;
  }

  /** A container or a Kubernetes pod: its /tmp and its address are its own. */
  boolean isContainer() {
    return kind != Kind.HOST;
  }
}
