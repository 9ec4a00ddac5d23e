#!/usr/bin/env bash
# Regenerates the landing page's AR demo clip (public/assets/ar-demo.webm and .mp4):
# a 4 s, 640x360, 24 fps seamless loop of a "city at dusk" camera view with a slow pan,
# lit windows and three bobbing, pulsing event markers (Music violet, Food orange,
# Business blue), framed by camera-style corner brackets. Everything is drawn by
# ffmpeg's geq/drawbox filters; no external footage. All motion has a period that
# divides 4 s, so the clip loops without a jump. Needs ffmpeg with libvpx-vp9 and libx264.
set -euo pipefail

cd "$(dirname "$0")/.."
OUT=public/assets
mkdir -p "$OUT"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

W=640 H=360 FPS=24 DUR=4

# Shared prefix of the per-pixel expression (evaluated once per colour plane).
#  0: world x (camera pans +-24 px over 4 s)   1: building column   2: column hash
#  3: roof line   4: lit window   5: building mask   6: sky/building/window base colour
#  7: distance to the nearest marker being drawn   8: pulse phase   9: scratch
PRE="st(0,X+24*sin(T*PI/2));"
PRE+="st(1,floor(ld(0)/46));"
PRE+="st(2,mod(abs(sin(ld(1)*12.9898)*43758.5453),1));"
PRE+="st(3,H*(0.40+0.32*ld(2)));"
PRE+="st(5,gt(Y,ld(3))*lt(mod(ld(0),46),40));"
PRE+="st(4,ld(5)*gt(Y,ld(3)+8)*lt(Y,H*0.9)*between(mod(ld(0),46),5,35)*lt(mod(ld(0)-5,8),4)*lt(mod(Y-ld(3)-8,13),6)*gt(mod(abs(sin(floor(ld(0)/8)*78.233+floor((Y-ld(3)-8)/13)*37.719)*43758.5453),1),0.55));"

# base colour of one plane: sky gradient SKY0->SKY1, building BLD, window WIN, street GND
base() { # $1 sky top  $2 sky horizon  $3 building  $4 window  $5 street
  echo "st(9,clip(Y/(0.85*H),0,1));st(6,if(gt(Y,H*0.9),$5,if(ld(4),$4,if(ld(5),$3,$1+($2-$1)*ld(9)*ld(9)))));"
}

# one marker: $1 x  $2 y  $3 bob phase  $4 pulse phase  $5 colour of this plane  $6 inner expression
marker() {
  local px="($1-24*sin(T*PI/2))" py="($2+8*sin(T*PI+$3))"
  echo "st(7,hypot(X-$px,Y-$py));st(8,mod(T+$4,1));if(lt(ld(7),9),$5,if(lt(ld(7),13),255,if(lt(abs(X-$px),1.5)*between(Y-$py,13,32),255,if(lt(abs(ld(7)-14-30*ld(8)),1.5),ld(6)+(255-ld(6))*(1-ld(8)),$6))))"
}

plane() { # $1..$5 base colours, $6..$8 marker colours of this plane
  echo "${PRE}$(base "$1" "$2" "$3" "$4" "$5")$(marker 170 150 0 0 "$6" "$(marker 360 110 2.1 0.33 "$7" "$(marker 500 175 4.2 0.66 "$8" "ld(6)")")")"
}

R=$(plane 28 250 34 255 40 124 234 37)
G=$(plane 22 140 28 214 36 58 88 99)
B=$(plane 72 96 52 120 44 237 12 235)

# Camera-style corner brackets.
BR="color=white@0.85:t=fill"
BRACKETS="drawbox=x=24:y=24:w=40:h=4:$BR,drawbox=x=24:y=24:w=4:h=40:$BR,"
BRACKETS+="drawbox=x=iw-64:y=24:w=40:h=4:$BR,drawbox=x=iw-28:y=24:w=4:h=40:$BR,"
BRACKETS+="drawbox=x=24:y=ih-28:w=40:h=4:$BR,drawbox=x=24:y=ih-64:w=4:h=40:$BR,"
BRACKETS+="drawbox=x=iw-64:y=ih-28:w=40:h=4:$BR,drawbox=x=iw-28:y=ih-64:w=4:h=40:$BR"

printf "[0:v]format=gbrp,geq=r='%s':g='%s':b='%s',%s,format=yuv420p[v]" "$R" "$G" "$B" "$BRACKETS" >"$TMP/graph.txt"

# Render once, losslessly, then encode both delivery formats from the same frames.
ffmpeg -hide_banner -loglevel error -y \
  -f lavfi -i "color=c=black:s=${W}x${H}:r=${FPS}:d=${DUR}" \
  -filter_complex_script "$TMP/graph.txt" -map '[v]' -c:v ffv1 "$TMP/master.mkv"

ffmpeg -hide_banner -loglevel error -y -i "$TMP/master.mkv" -an \
  -c:v libvpx-vp9 -b:v 0 -crf 40 -deadline good -cpu-used 2 -row-mt 1 -pix_fmt yuv420p \
  "$OUT/ar-demo.webm"

ffmpeg -hide_banner -loglevel error -y -i "$TMP/master.mkv" -an \
  -c:v libx264 -profile:v baseline -level 3.0 -preset slow -crf 27 -pix_fmt yuv420p \
  -movflags +faststart "$OUT/ar-demo.mp4"

ls -l "$OUT/ar-demo.webm" "$OUT/ar-demo.mp4"
