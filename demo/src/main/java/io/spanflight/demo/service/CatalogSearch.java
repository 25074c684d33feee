package io.spanflight.demo.service;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * {@code /search}: allocation-heavy. Builds a candidate list of products (a record, a name, a
 * lower-cased copy and a tag list each), keeps the matching ones, sorts them by score and returns
 * the first page: megabytes of short-lived objects per request.
 */
final class CatalogSearch {
  static final int CATALOG_SIZE = 12_000;
  static final int PAGE = 20;
  private static final String[] WORDS = {
    "lamp", "desk", "chair", "cable", "mug", "shelf", "table", "light", "sofa", "rug", "clock", "frame"
  };

  /** One candidate product. */
  record Product(int id, String name, String normalizedName, List<String> tags, double score) {}

  private CatalogSearch() {}

  static String search(String query) {
    List<Product> page = buildResultPage(query.toLowerCase(Locale.ROOT));
    StringBuilder out = new StringBuilder("search '").append(query).append("': ");
    for (Product p : page) {
      out.append(p.id()).append(' ');
    }
    return out.append('\n').toString();
  }

  /** The allocation of every /search request happens here. */
  static List<Product> buildResultPage(String query) {
    List<Product> candidates = new ArrayList<>();
    for (int id = 0; id < CATALOG_SIZE; id++) {
      String name = WORDS[id % WORDS.length] + " " + WORDS[(id / 7) % WORDS.length] + " #" + id;
      List<String> tags = new ArrayList<>(List.of(name.split(" ")));
      candidates.add(new Product(id, name, name.toLowerCase(Locale.ROOT), tags, (id * 2654435761L % 1000) / 10.0));
    }
    List<Product> matches = new ArrayList<>();
    for (Product p : candidates) {
      if (p.normalizedName().contains(query) || p.tags().contains(query)) {
        matches.add(p);
      }
    }
    matches.sort(Comparator.comparingDouble(Product::score).reversed().thenComparingInt(Product::id));
    return List.copyOf(matches.subList(0, Math.min(PAGE, matches.size())));
  }
}
