import java.io.File;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import com.sun.tools.javac.api.JavacTaskImpl;
import com.sun.tools.javac.comp.Todo;
import javax.lang.model.element.Element;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Runs a harness, compiling each class it loads from source the first time it is loaded:
 * javac ({@code javax.tools}) with {@code -sourcepath} over the harness's sources, Kafka's
 * sources and the message classes Kafka's generator wrote, and {@code -implicit:none}, so
 * that only the classes the harness runs are compiled, one source file at a time, and only
 * that file attributed (javac still reads the signatures of what each file names).
 *
 * <p>Why not one {@code javac -sourcepath} of the harness: javac then compiles everything the
 * harness's classes name, transitively, method bodies included. From the assignors that
 * reaches the whole request layer ({@code ConsumerGroupMetadata} names
 * {@code JoinGroupRequest}, whose parent parses every request) and from there client
 * telemetry, which needs OpenTelemetry's protobuf classes, and the metadata image, which
 * needs pcollections: libraries Debian does not package, for code the harnesses never run.
 *
 * <p>Even one file at a time, javac reads the signatures of the files it names, and a few
 * of those name such a library's classes. NAMES_ONLY holds stand-ins for those names
 * ({@code names-only/}): javac sees them, this loader never loads them (a class found only
 * there is not found), so no code of theirs can run.
 *
 * <p>Usage: {@code java --add-exports jdk.compiler/com.sun.tools.javac.api=ALL-UNNAMED
 * --add-exports jdk.compiler/com.sun.tools.javac.comp=ALL-UNNAMED --add-exports
 * jdk.compiler/com.sun.tools.javac.util=ALL-UNNAMED Run.java CACHE SOURCEPATH NAMES_ONLY
 * CLASSPATH MAIN [ARGS...]} (the exports: see {@code compile}):
 * CACHE is the folder the compiled classes are kept in (reused by later runs over the same
 * sources: start with an empty one when a source changes); SOURCEPATH, NAMES_ONLY and
 * CLASSPATH are lists separated by {@code :} (CLASSPATH: the jars Kafka's code needs, such
 * as slf4j-api); MAIN is the harness's class.
 */
public final class Run {
    private Run() {}

    static final class SourceLoader extends ClassLoader {
        private final Path cache;
        private final List<Path> sourcepath;
        private final String classpath;
        private final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        private final StandardJavaFileManager files = javac.getStandardFileManager(null, null, null);
        private final List<Path> javacSourcepath;
        int compiled = 0;

        SourceLoader(ClassLoader parent, Path cache, List<Path> sourcepath, List<Path> namesOnly, String classpath) {
            super(parent);
            this.cache = cache;
            this.sourcepath = sourcepath;
            this.javacSourcepath = new ArrayList<>(sourcepath);
            this.javacSourcepath.addAll(namesOnly);
            this.classpath = classpath;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            Path classFile = cache.resolve(name.replace('.', '/') + ".class");
            if (!Files.exists(classFile)) {
                int dollar = name.indexOf('$');
                String top = dollar < 0 ? name : name.substring(0, dollar);
                Path source = source(top);
                if (source == null) throw new ClassNotFoundException(name);
                compile(source);
                if (!Files.exists(classFile)) throw new ClassNotFoundException(name + " (not in " + source + ")");
            }
            try {
                byte[] bytes = Files.readAllBytes(classFile);
                return defineClass(name, bytes, 0, bytes.length);
            } catch (IOException e) {
                throw new ClassNotFoundException(name, e);
            }
        }

        private Path source(String topLevel) {
            String relative = topLevel.replace('.', '/') + ".java";
            for (Path dir : sourcepath) {
                Path p = dir.resolve(relative);
                if (Files.exists(p)) return p;
            }
            return null;
        }

        private void compile(Path source) throws ClassNotFoundException {
            List<String> options = Arrays.asList(
                "-d", cache.toString(),
                "-sourcepath", String.join(File.pathSeparator, javacSourcepath.stream().map(Path::toString).toArray(String[]::new)),
                "-classpath", classpath.isEmpty() ? cache.toString() : classpath + File.pathSeparator + cache,
                "-implicit:none", "-proc:none", "-nowarn", "-encoding", "UTF-8", "-Xlint:none");
            // Parse and enter the file, then attribute and generate its own classes only
            // (JavacTaskImpl's analyze(classes) and generate(classes), and javac's Todo
            // emptied in between: the --add-exports of jdk.compiler's api, comp and util
            // packages that Run needs). A plain call() also attributes the body of every
            // source javac completes while attributing this one (-implicit:none only stops
            // it writing them), and some of those bodies use libraries that are not here.
            DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
            Iterable<? extends JavaFileObject> units = files.getJavaFileObjects(source.toFile());
            JavacTaskImpl task = (JavacTaskImpl) javac.getTask(null, files, diagnostics, options, null, units);
            task.parse();
            Iterable<? extends Element> classes = task.enter();
            task.analyze(classes);
            // What is left to attribute was read for names only; generate() would attribute it.
            Todo.instance(task.getContext()).retainFiles(List.of());
            task.generate(classes);
            StringBuilder errors = new StringBuilder();
            for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
                if (d.getKind() == Diagnostic.Kind.ERROR) errors.append(d).append('\n');
            }
            if (errors.length() > 0) throw new ClassNotFoundException("javac failed on " + source + ":\n" + errors);
            compiled++;
        }
    }

    public static void main(String[] args) throws Throwable {
        if (args.length < 5) {
            System.err.println("usage: java Run.java CACHE SOURCEPATH NAMES_ONLY CLASSPATH MAIN [ARGS...]");
            System.exit(2);
        }
        Path cache = Paths.get(args[0]);
        Files.createDirectories(cache);
        List<Path> sourcepath = paths(args[1]);
        List<Path> namesOnly = paths(args[2]);
        String classpath = args[3];
        List<URL> jars = new ArrayList<>();
        for (Path jar : paths(classpath)) jars.add(jar.toUri().toURL());
        // The jars' loader sits under the platform loader, not the application's, so that
        // nothing but the JDK, the jars and the compiled sources is seen.
        ClassLoader libraries = new URLClassLoader(jars.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
        SourceLoader loader = new SourceLoader(libraries, cache, sourcepath, namesOnly, classpath);
        Thread.currentThread().setContextClassLoader(loader);
        Method main = loader.loadClass(args[4]).getMethod("main", String[].class);
        try {
            main.invoke(null, (Object) Arrays.copyOfRange(args, 5, args.length));
        } catch (InvocationTargetException e) {
            throw e.getCause();
        } finally {
            if (loader.compiled > 0) System.err.println("(compiled " + loader.compiled + " source files into " + cache + ")");
        }
    }

    private static List<Path> paths(String list) {
        List<Path> out = new ArrayList<>();
        for (String s : list.split(File.pathSeparator)) if (!s.isEmpty()) out.add(Paths.get(s));
        return out;
    }
}
