// Hadoop's local file system, setting a new file's permissions through
// Java instead of a `chmod` process. Without Hadoop's native library
// (which PyPI's PySpark does not ship) every file Spark writes starts a
// process; the Spark checks write tens of thousands of small files, and
// those processes were a third of their time. It is the raw file system,
// without the .crc file beside each file that only Hadoop's own readers
// check: the tables hold the same bytes, with the same permissions.
// scripts/real/spark_checks.py compiles it with the JDK's javac, if there
// is one, against PySpark's own Hadoop jars.
package partitionlab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

public class NioLocalFileSystem extends RawLocalFileSystem {
  @Override
  public void setPermission(Path p, FsPermission permission) throws IOException {
    // "rwxr-xr-x", without the sticky bit Hadoop may print tenth.
    String rwx = permission.toString().substring(0, 9).replace('t', 'x').replace('T', '-');
    Files.setPosixFilePermissions(pathToFile(p).toPath(), PosixFilePermissions.fromString(rwx));
  }
}
