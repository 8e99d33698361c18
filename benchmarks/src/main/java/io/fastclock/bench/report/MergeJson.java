package io.fastclock.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonParser;

/** MergeJson OUT IN...: concatenates JMH JSON result arrays (one per thread count) into one file. */
public final class MergeJson {
    private MergeJson() {}

    public static void main(String[] args) throws IOException {
        JsonArray all = new JsonArray();
        for (int i = 1; i < args.length; i++) {
            String text = Files.readString(Path.of(args[i])).strip();
            if (!text.isEmpty()) {
                all.addAll(JsonParser.parseString(text).getAsJsonArray());
            }
        }
        Files.writeString(Path.of(args[0]), new GsonBuilder().setPrettyPrinting().create().toJson(all));
        System.err.println("MergeJson: " + all.size() + " results -> " + args[0]);
    }
}
