package corpus;

import static org.elasticsearch.plugins.AnalysisPlugin.requiresAnalysisSettings;

import java.io.Reader;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.charfilter.MappingCharFilter;
import org.apache.lucene.analysis.charfilter.NormalizeCharMap;
import org.apache.lucene.analysis.core.UpperCaseFilter;
import org.apache.lucene.analysis.en.EnglishMinimalStemFilter;
import org.apache.lucene.analysis.en.EnglishPossessiveFilter;
import org.apache.lucene.analysis.en.KStemFilter;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.fr.FrenchAnalyzer;
import org.apache.lucene.analysis.fr.FrenchLightStemFilter;
import org.apache.lucene.analysis.fr.FrenchMinimalStemFilter;
import org.apache.lucene.analysis.miscellaneous.ASCIIFoldingFilter;
import org.apache.lucene.analysis.snowball.SnowballFilter;
import org.apache.lucene.analysis.util.ElisionFilter;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.env.Environment;
import org.elasticsearch.index.IndexSettings;
import org.elasticsearch.index.analysis.AbstractCharFilterFactory;
import org.elasticsearch.index.analysis.AbstractIndexAnalyzerProvider;
import org.elasticsearch.index.analysis.AbstractTokenFilterFactory;
import org.elasticsearch.index.analysis.Analysis;
import org.elasticsearch.index.analysis.AnalyzerProvider;
import org.elasticsearch.index.analysis.CharFilterFactory;
import org.elasticsearch.index.analysis.NormalizingCharFilterFactory;
import org.elasticsearch.index.analysis.NormalizingTokenFilterFactory;
import org.elasticsearch.index.analysis.PreBuiltAnalyzerProviderFactory;
import org.elasticsearch.index.analysis.PreConfiguredTokenFilter;
import org.elasticsearch.index.analysis.TokenFilterFactory;
import org.elasticsearch.indices.analysis.AnalysisModule.AnalysisProvider;
import org.elasticsearch.indices.analysis.PreBuiltCacheFactory.CachingStrategy;
import org.elasticsearch.plugins.AnalysisPlugin;
import org.elasticsearch.plugins.Plugin;
import org.tartarus.snowball.ext.FrenchStemmer;

/**
 * The French analysis of the distribution's analysis-common module (not on Maven Central), under
 * the same names and settings, on the same Lucene classes: analyzer `french`; token filters
 * `elision` (articles, articles_case), `asciifolding` (preserve_original), `uppercase`,
 * `snowball` (language) and `stemmer` (language: french, light_french, minimal_french, the English
 * ones, or any Snowball stemmer); char filter `mapping` (mappings: « key => value », \\uXXXX escapes,
 * an empty value deletes the key). The server jar itself has the `standard` tokenizer and analyzer,
 * the `lowercase` normalizer and token filters `lowercase`, `stop` (with `_french_`), `shingle` and
 * `hunspell`, and the BM25 similarity. A filter Elasticsearch builds for every new index with empty
 * settings must accept them: only `elision` requires settings, as in the distribution.
 */
public class FrenchAnalysisPlugin extends Plugin implements AnalysisPlugin {
  @Override
  public Map<String, AnalysisProvider<TokenFilterFactory>> getTokenFilters() {
    return Map.of(
        // As in the distribution, an elision filter of one's own must name its articles.
        "elision", requiresAnalysisSettings(ElisionFactory::new),
        "asciifolding", AsciiFoldingFactory::new,
        "uppercase", (index, env, name, settings) -> normalizing(name, UpperCaseFilter::new),
        "snowball", (index, env, name, settings) -> snowball(name, settings.get("language", "English")),
        "stemmer", StemmerFactory::new);
  }

  @Override
  public Map<String, AnalysisProvider<CharFilterFactory>> getCharFilters() {
    return Map.of("mapping", requiresAnalysisSettings(MappingFactory::new));
  }

  @Override
  public List<PreConfiguredTokenFilter> getPreConfiguredTokenFilters() {
    return List.of(
        PreConfiguredTokenFilter.singleton("elision", true, in -> new ElisionFilter(in, FrenchAnalyzer.DEFAULT_ARTICLES)),
        PreConfiguredTokenFilter.singleton("asciifolding", true, in -> new ASCIIFoldingFilter(in)),
        PreConfiguredTokenFilter.singleton("uppercase", true, UpperCaseFilter::new),
        PreConfiguredTokenFilter.singleton("snowball", false, in -> new SnowballFilter(in, "English")),
        PreConfiguredTokenFilter.singleton("french_stem", false, in -> new SnowballFilter(in, "French")));
  }

  @Override
  public Map<String, AnalysisProvider<AnalyzerProvider<? extends Analyzer>>> getAnalyzers() {
    return Map.of("french", FrenchAnalyzerProvider::new);
  }

  @Override
  public List<PreBuiltAnalyzerProviderFactory> getPreBuiltAnalyzerProviderFactories() {
    return List.of(new PreBuiltAnalyzerProviderFactory("french", CachingStrategy.LUCENE, FrenchAnalyzer::new));
  }

  /** A filter that also applies to normalizers (keyword fields) and multi-term queries. */
  private static TokenFilterFactory normalizing(String name, UnaryOperator<TokenStream> filter) {
    return new NormalizingTokenFilterFactory() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public TokenStream create(TokenStream in) {
        return filter.apply(in);
      }
    };
  }

  private static TokenFilterFactory snowball(String name, String language) {
    String stemmer = snowballStemmer(language);
    if (stemmer == null) throw new IllegalArgumentException("snowball language [" + language + "] is not supported");
    return new AbstractTokenFilterFactory(name) {
      @Override
      public TokenStream create(TokenStream in) {
        return new SnowballFilter(in, stemmer);
      }
    };
  }

  /** `mapping`: each « key => value » rule, both sides trimmed and unescaped, as the distribution reads them. */
  static final class MappingFactory extends AbstractCharFilterFactory implements NormalizingCharFilterFactory {
    private final NormalizeCharMap map;

    MappingFactory(IndexSettings index, Environment env, String name, Settings settings) {
      super(name);
      List<String> rules = Analysis.getWordList(env, settings, "mappings");
      if (rules == null)
        throw new IllegalArgumentException("mapping requires either `mappings` or `mappings_path` to be configured");
      NormalizeCharMap.Builder builder = new NormalizeCharMap.Builder();
      for (String rule : rules) {
        int arrow = rule.indexOf("=>");
        if (arrow < 0) throw new IllegalArgumentException("Invalid Mapping Rule : [" + rule + "]");
        builder.add(unescape(rule.substring(0, arrow).trim()), unescape(rule.substring(arrow + 2).trim()));
      }
      map = builder.build();
    }

    @Override
    public Reader create(Reader in) {
      return new MappingCharFilter(map, in);
    }

    /** \\uXXXX, \\n, \\t, \\r, \\b, \\f and \\\\ read as the characters they name. */
    private static String unescape(String s) {
      StringBuilder out = new StringBuilder(s.length());
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        if (c != '\\') {
          out.append(c);
          continue;
        }
        if (++i >= s.length()) throw new IllegalArgumentException("Invalid escaped char in [" + s + "]");
        char e = s.charAt(i);
        switch (e) {
          case 'n' -> out.append('\n');
          case 't' -> out.append('\t');
          case 'r' -> out.append('\r');
          case 'b' -> out.append('\b');
          case 'f' -> out.append('\f');
          case 'u' -> {
            if (i + 4 >= s.length())
              throw new IllegalArgumentException("Invalid escaped char in [" + s + "]");
            out.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
            i += 4;
          }
          default -> out.append(e);
        }
      }
      return out.toString();
    }
  }

  static final class ElisionFactory extends AbstractTokenFilterFactory implements NormalizingTokenFilterFactory {
    private final CharArraySet articles;

    ElisionFactory(IndexSettings index, Environment env, String name, Settings settings) {
      super(name);
      articles = Analysis.parseArticles(env, settings);
      if (articles == null)
        throw new IllegalArgumentException("elision filter requires [articles] or [articles_path] setting");
    }

    @Override
    public TokenStream create(TokenStream in) {
      return new ElisionFilter(in, articles);
    }
  }

  static final class AsciiFoldingFactory extends AbstractTokenFilterFactory implements NormalizingTokenFilterFactory {
    private final boolean preserveOriginal;

    AsciiFoldingFactory(IndexSettings index, Environment env, String name, Settings settings) {
      super(name);
      preserveOriginal = settings.getAsBoolean("preserve_original", false);
    }

    @Override
    public TokenStream create(TokenStream in) {
      return new ASCIIFoldingFilter(in, preserveOriginal);
    }

    @Override
    public TokenStream normalize(TokenStream in) {
      // A normalizer emits one token: never the original beside the folded one.
      return new ASCIIFoldingFilter(in, false);
    }
  }

  static final class StemmerFactory extends AbstractTokenFilterFactory {
    private final String language;

    StemmerFactory(IndexSettings index, Environment env, String name, Settings settings) {
      super(name);
      language = settings.get("language", settings.get("name", "porter")).toLowerCase(Locale.ROOT);
      // An unknown language fails when the index is created, not at search time.
      if (!ENGLISH_AND_FRENCH.contains(language) && snowballStemmer(language) == null)
        throw new IllegalArgumentException("stemmer language [" + language + "] is not supported here");
    }

    @Override
    public TokenStream create(TokenStream in) {
      return switch (language) {
        case "french" -> new SnowballFilter(in, new FrenchStemmer());
        case "light_french", "lightfrench" -> new FrenchLightStemFilter(in);
        case "minimal_french", "minimalfrench" -> new FrenchMinimalStemFilter(in);
        case "porter", "english" -> new PorterStemFilter(in);
        case "light_english", "lightenglish", "kstem" -> new KStemFilter(in);
        case "minimal_english", "minimalenglish" -> new EnglishMinimalStemFilter(in);
        case "possessive_english", "possessiveenglish" -> new EnglishPossessiveFilter(in);
        // Other languages: the Snowball stemmer of that name (german, spanish, italian…).
        default -> new SnowballFilter(in, snowballStemmer(language));
      };
    }

    private static final Set<String> ENGLISH_AND_FRENCH = Set.of(
        "french", "light_french", "lightfrench", "minimal_french", "minimalfrench", "porter", "english",
        "light_english", "lightenglish", "kstem", "minimal_english", "minimalenglish", "possessive_english",
        "possessiveenglish");
  }

  /** The Snowball class name for a language (German for german), or null when Lucene has none. */
  private static String snowballStemmer(String language) {
    String stemmer = language.substring(0, 1).toUpperCase(Locale.ROOT) + language.substring(1);
    try {
      Class.forName("org.tartarus.snowball.ext." + stemmer + "Stemmer");
      return stemmer;
    } catch (ClassNotFoundException | IndexOutOfBoundsException e) {
      return null;
    }
  }

  static final class FrenchAnalyzerProvider extends AbstractIndexAnalyzerProvider<FrenchAnalyzer> {
    private final FrenchAnalyzer analyzer;

    FrenchAnalyzerProvider(IndexSettings index, Environment env, String name, Settings settings) {
      super(name);
      analyzer = new FrenchAnalyzer(
          Analysis.parseStopWords(env, settings, FrenchAnalyzer.getDefaultStopSet()),
          Analysis.parseStemExclusion(settings, CharArraySet.EMPTY_SET));
    }

    @Override
    public FrenchAnalyzer get() {
      return analyzer;
    }
  }
}
