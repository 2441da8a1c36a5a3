# frozen_string_literal: true

# ISBN-10 and ISBN-13 check digits (ISO 2108).
module Isbnkit
  module_function

  # True when +s+ is a valid ISBN-10 or ISBN-13 (digits only).
  def valid?(s)
    digits = s.to_s
    case digits.length
    when 10 then digits.match?(/\A[\dXx]{10}\z/) && isbn10_sum(digits) % 11 == 0
    when 13 then digits.match?(/\A\d{13}\z/) && isbn13_sum(digits) % 10 == 0
    else false
    end
  end

  # The ISBN-13 ("978" prefix) of a valid ISBN-10; raises ArgumentError
  # for anything else.
  def to_isbn13(s)
    raise ArgumentError, "not an ISBN-10: #{s.inspect}" unless s.to_s.length == 10 && valid?(s)

    body = "978#{s.to_s[0, 9]}"
    check = (10 - isbn13_sum("#{body}0") % 10) % 10
    "#{body}#{check}"
  end

  def isbn10_sum(digits)
    digits.chars.each_with_index.sum { |c, i| (10 - i) * (c.casecmp?("X") ? 10 : c.to_i) }
  end

  def isbn13_sum(digits)
    digits.chars.each_with_index.sum { |c, i| (i.even? ? 1 : 3) * c.to_i }
  end
end
