package corpus;

import static org.elasticsearch.rest.RestRequest.Method.GET;
import static org.elasticsearch.rest.RestRequest.Method.HEAD;

import java.util.Collection;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.elasticsearch.Build;
import org.elasticsearch.client.internal.node.NodeClient;
import org.elasticsearch.cluster.metadata.IndexNameExpressionResolver;
import org.elasticsearch.cluster.node.DiscoveryNodes;
import org.elasticsearch.cluster.service.ClusterService;
import org.elasticsearch.common.io.stream.NamedWriteableRegistry;
import org.elasticsearch.common.settings.ClusterSettings;
import org.elasticsearch.common.settings.IndexScopedSettings;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.common.settings.SettingsFilter;
import org.elasticsearch.features.NodeFeature;
import org.elasticsearch.plugins.ActionPlugin;
import org.elasticsearch.plugins.Plugin;
import org.elasticsearch.rest.BaseRestHandler;
import org.elasticsearch.rest.RestController;
import org.elasticsearch.rest.RestHandler;
import org.elasticsearch.rest.RestRequest;
import org.elasticsearch.rest.RestResponse;
import org.elasticsearch.rest.RestStatus;
import org.elasticsearch.xcontent.XContentBuilder;

/**
 * `GET /` and `HEAD /`, which the distribution's rest-root module (not on Maven Central) serves:
 * the node's name, the cluster's, the version, so that clients' info() and ping() work.
 */
public class RestRootPlugin extends Plugin implements ActionPlugin {
  private volatile ClusterService clusterService;

  @Override
  public Collection<?> createComponents(PluginServices services) {
    clusterService = services.clusterService();
    return List.of();
  }

  @Override
  public Collection<RestHandler> getRestHandlers(
      Settings settings,
      NamedWriteableRegistry namedWriteableRegistry,
      RestController restController,
      ClusterSettings clusterSettings,
      IndexScopedSettings indexScopedSettings,
      SettingsFilter settingsFilter,
      IndexNameExpressionResolver indexNameExpressionResolver,
      Supplier<DiscoveryNodes> nodesInCluster,
      Predicate<NodeFeature> clusterSupportsFeature) {
    return List.of(new RootHandler());
  }

  private final class RootHandler extends BaseRestHandler {
    @Override
    public String getName() {
      return "main_action";
    }

    @Override
    public List<Route> routes() {
      return List.of(new Route(GET, "/"), new Route(HEAD, "/"));
    }

    @Override
    protected RestChannelConsumer prepareRequest(RestRequest request, NodeClient client) {
      return channel -> {
        Build build = Build.current();
        XContentBuilder body = channel.newBuilder();
        body.startObject()
            .field("name", clusterService.getNodeName())
            .field("cluster_name", clusterService.getClusterName().value())
            .field("cluster_uuid", clusterService.state().metadata().clusterUUID())
            .startObject("version")
            .field("number", build.qualifiedVersion())
            .field("build_flavor", build.flavor())
            .field("build_type", build.type().displayName())
            .field("build_hash", build.hash())
            .field("build_date", build.date())
            .field("build_snapshot", build.isSnapshot())
            .field("lucene_version", org.apache.lucene.util.Version.LATEST.toString())
            .field("minimum_wire_compatibility_version", build.minWireCompatVersion())
            .field("minimum_index_compatibility_version", build.minIndexCompatVersion())
            .endObject()
            .field("tagline", "You Know, for Search")
            .endObject();
        // For HEAD the channel sends the headers alone.
        channel.sendResponse(new RestResponse(RestStatus.OK, body));
      };
    }
  }
}
