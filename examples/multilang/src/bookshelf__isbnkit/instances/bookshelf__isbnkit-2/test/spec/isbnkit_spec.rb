# frozen_string_literal: true

RSpec.describe Isbnkit do
  describe ".valid?" do
    it "accepts valid ISBN-13s" do
      expect(described_class.valid?("9780306406157")).to be true
      expect(described_class.valid?("9781861972712")).to be true
    end

    it "accepts valid ISBN-10s" do
      expect(described_class.valid?("0306406152")).to be true
    end

    it "rejects wrong check digits and lengths" do
      %w[9780306406158 0306406153 12345 978030640615].each do |s|
        expect(described_class.valid?(s)).to be(false), s
      end
    end

    it "accepts an X check digit in an ISBN-10" do
      expect(described_class.valid?("080442957X")).to be true
      expect(described_class.valid?("080442957x")).to be true
      expect(described_class.to_isbn13("080442957X")).to eq "9780804429573"
    end

    it "rejects letters outside the check digit" do
      %w[X306406151 03064061X3 978030640615X].each do |s|
        expect(described_class.valid?(s)).to be(false), s
      end
    end
  end

  describe ".to_isbn13" do
    it "converts an ISBN-10" do
      expect(described_class.to_isbn13("0306406152")).to eq "9780306406157"
    end

    it "refuses an invalid ISBN-10" do
      expect { described_class.to_isbn13("0306406153") }.to raise_error(ArgumentError)
    end
  end
end
