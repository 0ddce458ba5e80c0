#!/bin/bash
# ffmpeg's pad_opencl (on the platform OCL_ICD_VENDORS names) against its
# CPU pad filter, byte for byte, at x offsets 0-9, 15, 30, 31, 33 and y
# offsets 0, 1, 40 of a 1280x720 test picture. Needs Debian's ffmpeg.
#   OCL_ICD_VENDORS=$PWD/build/libclmux.so tools/apps/ffmpeg_pad.sh [gray|rgba]
# (yuv420p differs from the CPU filter on every platform at odd offsets:
# the CPU filter rounds them to the chroma grid, pad_opencl does not.)
set -u
format=${1:-gray}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
bad=0 runs=0
for x in 0 1 2 3 4 5 6 7 8 9 15 30 31 33; do
  for y in 0 1 40; do
    ffmpeg -v error -init_hw_device opencl=ocl:0.0 -filter_hw_device ocl \
      -f lavfi -i testsrc2=size=1280x720 -frames:v 1 \
      -vf "format=$format,hwupload,pad_opencl=w=1400:h=800:x=$x:y=$y,hwdownload,format=$format" \
      -f rawvideo -y "$dir/opencl.raw" || { echo "x=$x y=$y: ffmpeg failed"; bad=$((bad + 1)); continue; }
    ffmpeg -v error -f lavfi -i testsrc2=size=1280x720 -frames:v 1 \
      -vf "format=$format,pad=1400:800:$x:$y" -f rawvideo -y "$dir/cpu.raw"
    runs=$((runs + 1))
    if ! cmp -s "$dir/opencl.raw" "$dir/cpu.raw"; then
      echo "x=$x y=$y: $(cmp -l "$dir/opencl.raw" "$dir/cpu.raw" | wc -l) bytes differ"
      bad=$((bad + 1))
    fi
  done
done
echo "$format: $((runs - bad)) of $runs offsets identical to the CPU pad"
[ "$bad" -eq 0 ]
