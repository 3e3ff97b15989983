# Sourced by the fuzz targets' run.sh: `swift_objects BIN TARGET...` prints the object files of
# the Swift targets' current sources in the build folder BIN (SwiftPM names each FILE.swift's
# object FILE.swift.o in BIN/TARGET.build). Not a glob of that folder: objects of files since
# moved to another target stay there in an incremental build and would be linked twice.
swift_objects() {
  local bin="$1"; shift
  local target file
  for target in "$@"; do
    while IFS= read -r file; do
      echo "$bin/$target.build/$(basename "$file").o"
    done < <(find "Sources/$target" -name '*.swift' | sort)
  done
}
