#!/usr/bin/env bash
# Builds public/media/interview-guide.webm, the default interview-guide video
# (decision 0023): 15 s, 640×360, VP9 + Opus, a title card and three steps in
# Chinese drawn with Noto Sans CJK (fonts-noto-cjk) over a quiet tone.
# Needs ffmpeg with libvpx-vp9, libopus and drawtext (fontconfig).
set -euo pipefail
out="${1:-$(dirname "$0")/../public/media/interview-guide.webm}"
F="font='Noto Sans CJK SC'"
dt() { echo "drawtext=$F:text='$1':fontsize=$2:fontcolor=$3:x=(w-text_w)/2:y=$4:enable='between(t,$5,$6)'"; }
VF="$(dt '面试 / 录指纹指引' 44 white 120 0 3.5),$(dt '易签通 · 约 15 秒' 24 0xcfe3ff 190 0 3.5)"
VF="$VF,$(dt '第一步  提前 30 分钟到达领馆' 34 white 130 3.5 7),$(dt '排队安检，手机关机，勿带液体和打火机' 22 0xcfe3ff 190 3.5 7)"
VF="$VF,$(dt '第二步  取号递交资料' 34 white 130 7 10.5),$(dt '护照原件 + 通知中列出的全部资料' 22 0xcfe3ff 190 7 10.5)"
VF="$VF,$(dt '第三步  录指纹与简短面谈' 34 white 130 10.5 14),$(dt '如实回答行程问题，着装整洁' 22 0xcfe3ff 190 10.5 14)"
VF="$VF,$(dt '祝您出行顺利' 40 white 150 14 15)"
VF="$VF,drawtext=$F:text='%{eif\:t\:d}s':fontsize=18:fontcolor=0x9fb7d9:x=w-60:y=h-36"
ffmpeg -y -loglevel error \
  -f lavfi -i "color=c=0x1d3b6a:s=640x360:r=24:d=15" \
  -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=15" \
  -filter_complex "[0:v]$VF[v];[1:a]volume=0.05,afade=t=in:d=1,afade=t=out:st=14:d=1[a]" -map "[v]" -map "[a]" \
  -c:v libvpx-vp9 -b:v 300k -crf 40 -row-mt 1 -deadline good -cpu-used 4 -g 48 \
  -c:a libopus -b:a 32k "$out"
echo "wrote $out ($(stat -c %s "$out") bytes)"
