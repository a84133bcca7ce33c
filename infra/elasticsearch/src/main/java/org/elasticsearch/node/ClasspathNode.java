package org.elasticsearch.node;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.elasticsearch.bootstrap.BootstrapCheck;
import org.elasticsearch.bootstrap.BootstrapContext;
import org.elasticsearch.cluster.service.ClusterService;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.common.transport.BoundTransportAddress;
import org.elasticsearch.env.Environment;
import org.elasticsearch.plugins.ClasspathPluginsService;
import org.elasticsearch.plugins.Plugin;
import org.elasticsearch.plugins.PluginsLoader;
import org.elasticsearch.plugins.PluginsService;

/**
 * An Elasticsearch node whose plugins are classes on the classpath rather than bundles under
 * plugins/ and modules/, built the way Elasticsearch's own test node (MockNode) is. In this package
 * because NodeConstruction, NodeServiceProvider and this Node constructor are package-private.
 */
public class ClasspathNode extends Node {
  public ClasspathNode(Settings settings, Collection<Class<? extends Plugin>> plugins) {
    this(InternalSettingsPreparer.prepareEnvironment(settings, Map.of(), null, () -> "node"), plugins);
  }

  private ClasspathNode(Environment environment, Collection<Class<? extends Plugin>> plugins) {
    super(NodeConstruction.prepareConstruction(environment, null, new NodeServiceProvider() {
      @Override
      PluginsService newPluginService(Environment initialEnvironment, PluginsLoader pluginsLoader) {
        return new ClasspathPluginsService(initialEnvironment.settings(), initialEnvironment, plugins);
      }
    }, true));
  }

  /** The distribution's bootstrap checks (heap locked, file descriptors, mmap count…) are for production hosts. */
  @Override
  protected void validateNodeBeforeAcceptingRequests(
      BootstrapContext context, BoundTransportAddress boundTransportAddress, List<BootstrapCheck> bootstrapChecks) {}

  /** Sets a JVM-wide log context once per process: several nodes in one JVM must not (as in MockNode). */
  @Override
  protected void configureNodeAndClusterIdStateListener(ClusterService clusterService) {}
}
