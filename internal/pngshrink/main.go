// Command pngshrink rewrites PNG screenshots with a palette of their 256
// most used colours (best compression), so that the screenshots committed
// under docs/ stay small: a page of flat colours and text loses nothing
// visible. Used by make screenshot.
//
//	go run ./internal/pngshrink FILE.png...
package main

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"sort"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: pngshrink FILE.png...")
		os.Exit(2)
	}
	for _, name := range os.Args[1:] {
		if err := shrink(name); err != nil {
			fmt.Fprintln(os.Stderr, "pngshrink:", err)
			os.Exit(1)
		}
	}
}

func shrink(name string) error {
	data, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	b := img.Bounds()
	counts := map[color.RGBA]int{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			counts[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)]++
		}
	}
	colours := make([]color.RGBA, 0, len(counts))
	for c := range counts {
		colours = append(colours, c)
	}
	sort.Slice(colours, func(i, j int) bool {
		if counts[colours[i]] != counts[colours[j]] {
			return counts[colours[i]] > counts[colours[j]]
		}
		a, c := colours[i], colours[j]
		return uint32(a.R)<<24|uint32(a.G)<<16|uint32(a.B)<<8|uint32(a.A) < uint32(c.R)<<24|uint32(c.G)<<16|uint32(c.B)<<8|uint32(c.A)
	})
	pal := make(color.Palette, 0, 256)
	for _, c := range colours[:min(len(colours), 256)] {
		pal = append(pal, c)
	}
	out := image.NewPaletted(b, pal)
	draw.Draw(out, b, img, b.Min, draw.Src) // other colours: the nearest of the palette
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, out); err != nil {
		return err
	}
	if buf.Len() >= len(data) {
		return nil
	}
	fmt.Printf("%s: %d → %d bytes\n", name, len(data), buf.Len())
	return os.WriteFile(name, buf.Bytes(), 0o644)
}
