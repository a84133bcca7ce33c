package org.elasticsearch.plugins;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.elasticsearch.Build;
import org.elasticsearch.action.admin.cluster.node.info.PluginsAndModules;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.env.Environment;

/**
 * Plugins loaded from classes on the classpath, as Elasticsearch's test framework does
 * (MockPluginsService); in this package for PluginsService's package-private parts.
 */
public class ClasspathPluginsService extends PluginsService {
  private final List<LoadedPlugin> classpathPlugins;

  public ClasspathPluginsService(Settings settings, Environment environment, Collection<Class<? extends Plugin>> classes) {
    super(settings, environment.configDir(), new PluginsLoader(Set.of(), Set.of(), Map.of()));
    List<LoadedPlugin> loaded = new ArrayList<>();
    for (Class<? extends Plugin> pluginClass : classes) {
      Plugin plugin = loadPlugin(pluginClass, settings, environment.configDir());
      PluginDescriptor descriptor = new PluginDescriptor(
          pluginClass.getName(), "classpath plugin", "NA", Build.current().version(),
          Integer.toString(Runtime.version().feature()), pluginClass.getName(), null, List.of(),
          false, false, false, false);
      loaded.add(new LoadedPlugin(descriptor, plugin, pluginClass.getClassLoader()));
    }
    loadExtensions(loaded);
    this.classpathPlugins = List.copyOf(loaded);
  }

  @Override
  protected final List<LoadedPlugin> plugins() {
    return classpathPlugins;
  }

  @Override
  public PluginsAndModules info() {
    return new PluginsAndModules(classpathPlugins.stream().map(p -> new PluginRuntimeInfo(p.descriptor())).toList(), List.of());
  }
}
