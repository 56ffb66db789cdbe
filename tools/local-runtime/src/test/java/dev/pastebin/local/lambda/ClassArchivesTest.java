package dev.pastebin.local.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Who trains a function's class archive, when one is mapped, and what a trainer that ended leaves behind. */
class ClassArchivesTest {

    private static final Path JAVA = Path.of("/usr/bin/java");

    @TempDir
    Path archives;

    @TempDir
    Path taskRoot;

    private FunctionConfiguration function(String name) {
        return new FunctionConfiguration(
                name, "a.Handler::handle", "java25", taskRoot, 512, Duration.ofSeconds(3), Map.of(), List.of());
    }

    @Test
    void theFirstProcessTrainsTheOthersRunWithoutUntilItEnds() throws Exception {
        ClassArchives classArchives = new ClassArchives(archives);
        ClassArchives.Use trainer = classArchives.use(function("Create"), JAVA);
        assertNotNull(trainer.training());
        assertTrue(trainer.flags()
                .contains("-XX:ArchiveClassesAtExit=" + trainer.training().written()));
        assertEquals(ClassArchives.Use.NONE, classArchives.use(function("Create"), JAVA));
        assertNotNull(classArchives.use(function("Read"), JAVA).training(), "each function has its own archive");

        Files.writeString(trainer.training().written(), "the JVM's archive");
        trainer.training().ended();

        assertFalse(Files.exists(trainer.training().written()));
        assertFalse(Files.exists(trainer.training().lock()));
        ClassArchives.Use mapped = classArchives.use(function("Create"), JAVA);
        assertNull(mapped.training());
        assertTrue(mapped.flags()
                .contains("-XX:SharedArchiveFile=" + trainer.training().archive()));
    }

    @Test
    void aKilledTrainerLeavesNoArchiveAndLetsTheNextTrain() throws Exception {
        ClassArchives classArchives = new ClassArchives(archives);
        ClassArchives.Use trainer = classArchives.use(function("Create"), JAVA);
        Files.writeString(trainer.training().written(), "half an archive");
        trainer.training().abandoned();

        assertFalse(Files.exists(trainer.training().archive()));
        assertFalse(Files.exists(trainer.training().written()));
        assertNotNull(classArchives.use(function("Create"), JAVA).training());
    }

    @Test
    void aTrainerThatDiedWithoutItsTermIsReplacedOnceItsLockIsOld() throws Exception {
        ClassArchives classArchives = new ClassArchives(archives);
        ClassArchives.Use trainer = classArchives.use(function("Create"), JAVA);
        assertEquals(ClassArchives.Use.NONE, classArchives.use(function("Create"), JAVA));
        Files.setLastModifiedTime(
                trainer.training().lock(),
                FileTime.from(Instant.now().minus(ClassArchives.ABANDONED_AFTER).minusSeconds(1)));
        assertNotNull(classArchives.use(function("Create"), JAVA).training());
    }

    @Test
    void anArchiveIsForOneSetOfJarsAndOneJvm() throws Exception {
        Files.createDirectories(taskRoot.resolve("lib"));
        Files.writeString(taskRoot.resolve("lib/app.jar"), "v1");
        String before = ClassArchives.fingerprint(function("Create"), JAVA);
        assertEquals(before, ClassArchives.fingerprint(function("Create"), JAVA));
        assertNotEquals(before, ClassArchives.fingerprint(function("Create"), Path.of("/opt/jdk/bin/java")));
        Files.writeString(taskRoot.resolve("lib/app.jar"), "v2 is longer");
        assertNotEquals(before, ClassArchives.fingerprint(function("Create"), JAVA));
    }

    @Test
    void aMappedOrTrainedArchiveKeepsTheJvmsNotesOutOfTheFunctionsLog() {
        ClassArchives.Use trainer = new ClassArchives(archives).use(function("Create"), JAVA);
        assertTrue(trainer.flags().contains("-Xlog:cds=off"), trainer.flags().toString());
    }
}
